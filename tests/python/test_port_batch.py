"""The batch driver (tools/port/cutile_port/batch.py) on a scratch git repository: the op's
implementation is hidden in a worktree, a scripted agent ports it, an accepted port is committed onto
the tree, a failed one is tried twice and leaves its trail, and a tree with uncommitted changes is
refused."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "port"))

from cutile_port import __main__ as cli  # noqa: E402

IMPLEMENTATION = ["kernels/demo/scale.hpp", "kernels/demo/scale.cpp", "tests/interp/scale_test.cpp",
                  "tests/python/test_scale.py", "bench/ops/specs/scale.py"]
AGENT = textwrap.dedent(
    '''
    """Plays the scenario: at the kernel stage it checks that the implementation is hidden from it and
    writes the port into the tree the prompt names."""
    import json, re, sys
    from pathlib import Path
    scenario, stage, artifacts = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[4])
    plays = json.loads(scenario.read_text())
    counter = scenario.with_suffix(".next")
    k = int(counter.read_text()) if counter.exists() else 0
    counter.write_text(str(k + 1))
    verdict = plays[k]
    tree = Path(re.search(r"The tree: (.*)\\. Write", sys.stdin.read()).group(1))
    files = ''' + repr(IMPLEMENTATION) + '''
    if stage == "kernel":
        if any((tree / f).exists() for f in files):
            print("the implementation was not hidden")
            sys.exit(0)
        for f in files:
            (tree / f).parent.mkdir(parents=True, exist_ok=True)
            (tree / f).write_text("// ported through the pipeline\\n")
    (artifacts / "report.md").write_text(f"VERDICT: {verdict}\\n")
    if stage == "analyze":
        (artifacts / "analysis.json").write_text(json.dumps({"changeset": files}))
    print(f"<VALIDATOR_OUTPUT>\\n$ validate {stage}\\nexit=0\\n</VALIDATOR_OUTPUT>\\nVERDICT: {verdict}")
    '''
)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def repository(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for f in IMPLEMENTATION + ["README.md", "tools/reference/recipes/scale.py"]:
        (tree / f).parent.mkdir(parents=True, exist_ok=True)
        (tree / f).write_text(f"// {f} as it was\n")
    git(tree, "init", "-q")
    git(tree, "config", "user.name", "t")  # the port is committed as the tree's user
    git(tree, "config", "user.email", "t@t")
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "the tree")
    return tree


def batch(tmp_path: Path, tree: Path, plays: list) -> tuple[int, dict]:
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "scenario.json").write_text(json.dumps(plays))
    skill = tmp_path / "skill"
    (skill / "agents").mkdir(parents=True, exist_ok=True)
    runs = tmp_path / "runs"
    code = cli.main(["batch", "scale", "--runs", str(runs), "--skill", str(skill), "--tree", str(tree), "--agent",
                     f"{sys.executable} {tmp_path / 'agent.py'} {tmp_path / 'scenario.json'}", "--timeout-s", "60"])
    return code, runs


def test_an_accepted_port_is_committed_onto_the_tree(tmp_path, capsys):
    tree = repository(tmp_path)
    code, runs = batch(tmp_path, tree, ["PASS", "PASS", "PASS", "PASS"])
    result = json.loads(capsys.readouterr().out)["scale"]
    assert (code, result["outcome"], result["tries"]) == (0, "DONE", 1)
    assert git(tree, "log", "-1", "--format=%s").startswith("Port scale again through the pipeline")
    assert result["committed"] == git(tree, "rev-parse", "HEAD").strip()
    changed = git(tree, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(changed) == sorted(IMPLEMENTATION)
    assert (tree / "kernels/demo/scale.cpp").read_text() == "// ported through the pipeline\n"
    assert (tree / "README.md").read_text() == "// README.md as it was\n"
    assert not (runs / "scale" / "worktree1").exists()
    assert (runs / "scale" / "try1" / "state.json").is_file()


def test_a_failed_port_is_tried_twice_and_leaves_its_trail(tmp_path, capsys):
    tree = repository(tmp_path)
    head = git(tree, "rev-parse", "HEAD")
    # try 1: the host stage's FAIL lacks its blame twice; try 2: the analysis fails
    plays = ["PASS", "PASS", "FAIL", "FAIL", "FAIL"]
    code, runs = batch(tmp_path, tree, plays)
    result = json.loads(capsys.readouterr().out)["scale"]
    assert int((tmp_path / "scenario.next").read_text()) == len(plays)
    assert (code, result["tries"], result["committed"]) == (1, 2, None)
    assert result["reason"] == "analyze: FAIL"
    assert git(tree, "rev-parse", "HEAD") == head and not git(tree, "status", "--porcelain")
    for attempt in (1, 2):
        assert (runs / "scale" / f"worktree{attempt}" / "README.md").is_file()
        assert json.loads((runs / "scale" / f"try{attempt}" / "state.json").read_text())["outcome"] == "STOPPED"


def test_a_tree_with_uncommitted_changes_is_refused(tmp_path, capsys):
    tree = repository(tmp_path)
    (tree / "README.md").write_text("work in progress\n")
    code, runs = batch(tmp_path, tree, [])
    result = json.loads(capsys.readouterr().out)["scale"]
    assert code == 1 and result["outcome"] == "STOPPED" and "uncommitted changes" in result["reason"]
    assert (tree / "README.md").read_text() == "work in progress\n"


def test_a_try_carried_step_by_step_is_committed_by_batch_end(tmp_path, capsys):
    """batch-begin hides and starts the try, next/record carry it, batch-end accepts and commits it."""
    tree, skill, runs = repository(tmp_path), tmp_path / "skill", tmp_path / "runs"
    where = ["--runs", str(runs), "--tree", str(tree)]
    assert cli.main(["batch-end", "scale", *where]) == 2  # nothing begun
    assert cli.main(["batch-begin", "scale", *where, "--skill", str(skill)]) == 3
    awaited = json.loads(capsys.readouterr().out)
    run_dir, worktree = Path(awaited["run_dir"]), runs / "scale" / "worktree1"
    assert run_dir == runs / "scale" / "try1" and f"The tree: {worktree}." in awaited["prompt"]
    assert not (worktree / "kernels/demo/scale.cpp").exists()
    assert cli.main(["batch-begin", "scale", *where, "--skill", str(skill)]) == 2  # try 1 is running
    assert cli.main(["batch-end", "scale", *where]) == 2
    capsys.readouterr()
    for stage in ("analyze", "kernel", "host", "benchmark"):
        artifacts = run_dir / stage
        artifacts.mkdir(parents=True, exist_ok=True)
        (artifacts / "report.md").write_text("VERDICT: PASS\n")
        if stage == "analyze":
            (artifacts / "analysis.json").write_text(json.dumps({"changeset": IMPLEMENTATION}))
        if stage == "kernel":
            for f in IMPLEMENTATION:
                (worktree / f).parent.mkdir(parents=True, exist_ok=True)
                (worktree / f).write_text("// ported step by step\n")
        reply = tmp_path / f"{stage}.txt"
        reply.write_text(f"<VALIDATOR_OUTPUT>\n$ validate {stage}\nexit=0\n</VALIDATOR_OUTPUT>\nVERDICT: PASS\n")
        cli.main(["record", "--run", str(run_dir), str(reply)])
    capsys.readouterr()
    assert cli.main(["next", "--run", str(run_dir)]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "DONE"
    assert cli.main(["batch-end", "scale", *where]) == 0
    result = json.loads(capsys.readouterr().out)["scale"]
    assert result["committed"] == git(tree, "rev-parse", "HEAD").strip()
    assert (tree / "kernels/demo/scale.cpp").read_text() == "// ported step by step\n"
    assert not worktree.exists()
    assert cli.main(["batch-end", "scale", *where]) == 0  # ending it again names the same commit
    assert json.loads(capsys.readouterr().out)["scale"]["committed"] == result["committed"]
    assert cli.main(["batch-begin", "scale", *where, "--skill", str(skill)]) == 2  # ported already
