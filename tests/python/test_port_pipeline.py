"""The porting pipeline's orchestrator (tools/port/cutile_port) driven by a scripted agent over every
route: the green path, a host fault, a kernel fault through the IR-diff analyst, an env stop, a benchmark
miss through the residual investigator, malformed returns, exhausted caps and the output contract; and
one run carried step by step with next/record."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "port"))

from cutile_port import __main__ as cli  # noqa: E402
from cutile_port import pipeline, returns  # noqa: E402

AGENT = textwrap.dedent(
    '''
    """A scripted stage agent: plays the scenario's returns in order, checks that it is asked for the stage
    the scenario expects, and writes the artifacts a real stage would (its report, analysis.json)."""
    import json, sys
    from pathlib import Path
    scenario, stage, instructions, artifacts = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
    plays = json.loads(scenario.read_text())
    counter = scenario.with_suffix(".next")
    k = int(counter.read_text()) if counter.exists() else 0
    counter.write_text(str(k + 1))
    play = plays[k]
    prompt = sys.stdin.read()
    if play["stage"] != stage or instructions not in prompt:
        print(f"asked for {stage}, the scenario has {play['stage']}")
        sys.exit(0)
    if "raw" in play:
        print(play["raw"])
        sys.exit(0)
    if play.get("report", True):
        (artifacts / "report.md").write_text(f"VERDICT: {play['verdict']}\\n")
    if stage == "analyze":
        (artifacts / "analysis.json").write_text(json.dumps({"changeset": ["kernels/demo/op.cpp"]}))
    print("the stage's own words, which the pipeline does not read")
    print("<VALIDATOR_OUTPUT>")
    print(f"$ scripts/validate_{stage}.py")
    print("checked")
    print(f"exit={play.get('exit', 0)}")
    print("</VALIDATOR_OUTPUT>")
    if play.get("blame"):
        print(f"BLAME: {play['blame']}")
    print(f"VERDICT: {play['verdict']}")
    '''
)


def play(stage, verdict, blame=None, **extra):
    return {"stage": stage, "verdict": verdict, **({"blame": blame} if blame else {}), **extra}


GREEN = [play("analyze", "PASS"), play("kernel", "PASS"), play("host", "PASS"), play("benchmark", "PASS")]


def run(tmp_path: Path, plays: list) -> tuple[int, pipeline.State]:
    skill, tree = tmp_path / "skill", tmp_path / "tree"
    (skill / "agents").mkdir(parents=True)
    for stage in pipeline.CAPS:
        (skill / "agents" / f"{stage}.md").write_text(f"# {stage}\n")
    (tree / "kernels" / "demo").mkdir(parents=True)
    (tree / "kernels" / "demo" / "op.cpp").write_text("// the port\n")
    agent, scenario = tmp_path / "agent.py", tmp_path / "scenario.json"
    agent.write_text(AGENT)
    scenario.write_text(json.dumps(plays))
    code = cli.main(["run", "demo", "--run", str(tmp_path / "run"), "--skill", str(skill), "--tree", str(tree),
                     "--agent", f"{sys.executable} {agent} {scenario}", "--timeout-s", "60"])
    assert int((tmp_path / "scenario.next").read_text()) == len(plays), "every play was asked for"
    return code, pipeline.load(tmp_path / "run")


def route(state: pipeline.State) -> list[str]:
    return [f"{s.stage}{s.run}:{s.verdict}" + (f"/{s.blame}" if s.blame else "") for s in state.steps]


def test_green_path(tmp_path):
    code, state = run(tmp_path, GREEN)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state) == ["analyze1:PASS", "kernel1:PASS", "host1:PASS", "benchmark1:PASS"]
    assert len(list((tmp_path / "run" / "returns").iterdir())) == 4
    assert all(s.started and s.ended and s.started <= s.ended for s in state.steps), "each step's wall time is kept"


def test_a_host_fault_reruns_the_host_stage(tmp_path):
    plays = GREEN[:2] + [play("host", "FAIL", "host"), play("host", "PASS"), play("benchmark", "PASS")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[2:4] == ["host1:FAIL/host", "host2:PASS"]


def test_a_kernel_fault_goes_through_the_ir_diff_analyst_to_the_kernel_writer(tmp_path):
    plays = GREEN[:2] + [play("host", "FAIL", "kernel"), play("ir_diff", "FAIL", "kernel"), play("kernel", "PASS"),
                         play("host", "PASS"), play("benchmark", "PASS")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[2:] == ["host1:FAIL/kernel", "ir_diff1:FAIL/kernel", "kernel2:PASS", "host2:PASS",
                                "benchmark1:PASS"]


def test_the_analyst_can_send_a_fault_to_the_host_stage(tmp_path):
    plays = [play("analyze", "PASS"), play("kernel", "FAIL"), play("ir_diff", "FAIL", "host"), play("host", "PASS"),
             play("benchmark", "PASS")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[1:3] == ["kernel1:FAIL", "ir_diff1:FAIL/host"]


def test_an_env_blame_stops_the_run(tmp_path):
    code, state = run(tmp_path, GREEN[:2] + [play("host", "BLOCKED", "env")])
    assert (code, state.outcome) == (1, "STOPPED")
    assert state.reason == "host: BLOCKED, blamed on the environment"


def test_a_benchmark_miss_goes_to_the_residual_investigator(tmp_path):
    plays = GREEN[:3] + [play("benchmark", "MISS"), play("residual", "FIXABLE", "kernel"), play("kernel", "PASS"),
                         play("host", "PASS"), play("benchmark", "PASS")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[3:] == ["benchmark1:MISS", "residual1:FIXABLE/kernel", "kernel2:PASS", "host2:PASS",
                                "benchmark2:PASS"]


def test_an_aligned_residual_ends_below_target(tmp_path):
    code, state = run(tmp_path, GREEN[:3] + [play("benchmark", "MISS"), play("residual", "ALIGNED")])
    assert (code, state.outcome) == (1, "BELOW_TARGET")


def test_a_malformed_return_is_repaired_once_by_the_same_stage(tmp_path):
    plays = [GREEN[0], play("kernel", "", raw="done, it compiles"), GREEN[1], GREEN[2], GREEN[3]]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[1] == "kernel1:PASS"  # the repair is no second run
    assert (tmp_path / "run" / "returns" / "02_kernel_1_repair.txt").is_file()


def test_a_second_malformed_return_stops_the_run(tmp_path):
    plays = [GREEN[0], play("kernel", "", raw="no block"), play("kernel", "", raw="still none")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (1, "STOPPED")
    assert state.reason == "kernel: the repaired return is malformed too: no <VALIDATOR_OUTPUT> block"


def test_a_missing_blame_tag_is_a_failure_to_repair(tmp_path):
    plays = GREEN[:2] + [play("host", "FAIL"), play("host", "FAIL", "host"), play("host", "PASS"), GREEN[3]]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (0, "DONE")
    assert route(state)[2:4] == ["host1:FAIL/host", "host2:PASS"]


def test_a_pass_over_a_failed_command_is_malformed(tmp_path):
    plays = [GREEN[0], play("kernel", "PASS", exit=1), play("kernel", "PASS", exit=1)]
    code, state = run(tmp_path, plays)
    assert state.outcome == "STOPPED"
    assert "VERDICT PASS but 'scripts/validate_kernel.py' exited non-zero" in state.reason


def test_caps_are_exhausted(tmp_path):
    plays = GREEN[:2] + [play("host", "FAIL", "host"), play("host", "FAIL", "host")]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome, state.reason) == (1, "STOPPED", "cap: host has run 2 time(s)")


def test_the_output_contract_is_checked_at_the_end(tmp_path):
    plays = GREEN[:2] + [play("host", "PASS", report=False), GREEN[3]]
    code, state = run(tmp_path, plays)
    assert (code, state.outcome) == (1, "STOPPED")
    assert state.reason.startswith("the output contract is not met: ") and "host/report.md is missing" in state.reason


def test_a_run_carried_step_by_step(tmp_path, capsys):
    run_dir, skill, tree = tmp_path / "run", tmp_path / "skill", tmp_path / "tree"
    assert cli.main(["start", "demo", "--run", str(run_dir), "--skill", str(skill), "--tree", str(tree)]) == 3
    assert cli.main(["start", "demo", "--run", str(run_dir), "--skill", str(skill), "--tree", str(tree)]) == 2
    capsys.readouterr()
    assert cli.main(["next", "--run", str(run_dir)]) == 3
    awaited = json.loads(capsys.readouterr().out)
    assert (awaited["stage"], awaited["run"]) == ("analyze", 1)
    assert str(skill / "agents" / "analyze.md") in awaited["prompt"]
    reply = tmp_path / "reply.txt"
    reply.write_text("<VALIDATOR_OUTPUT>\n$ scripts/validate_analyze.py\nexit=2\n</VALIDATOR_OUTPUT>\nVERDICT: FAIL\n")
    assert cli.main(["record", "--run", str(run_dir), str(reply)]) == 1
    assert json.loads(capsys.readouterr().out) == {"outcome": "STOPPED", "reason": "analyze: FAIL"}
    assert cli.main(["record", "--run", str(run_dir), str(reply)]) == 2  # the run has ended
    assert cli.main(["next", "--run", str(tmp_path / "nothing")]) == 2


@pytest.mark.parametrize(
    "text, problem",
    [
        ("VERDICT: PASS", "no <VALIDATOR_OUTPUT> block"),
        ("<VALIDATOR_OUTPUT>\n$ a\nexit=0\n</VALIDATOR_OUTPUT>\nVERDICT: PASS\nmore", "nothing after it"),
        ("<VALIDATOR_OUTPUT>\n$ a\n</VALIDATOR_OUTPUT>\nVERDICT: PASS", "the command 'a' has no exit=N line"),
        ("<VALIDATOR_OUTPUT>\nchecked\n</VALIDATOR_OUTPUT>\nVERDICT: PASS", "no '$ command' line"),
        ("<VALIDATOR_OUTPUT>\n$ a\nexit=0\n</VALIDATOR_OUTPUT>\nBLAME: wrapper\nVERDICT: FAIL", "BLAME is 'wrapper'"),
    ],
)
def test_malformed_returns_say_what_is_wrong(text, problem):
    with pytest.raises(returns.MalformedReturn, match=problem.replace("(", r"\(").replace("$", r"\$")):
        returns.parse(text)


def test_a_return_is_read_from_its_last_block():
    text = ("draft:\n<VALIDATOR_OUTPUT>\n$ old\nexit=1\n</VALIDATOR_OUTPUT>\n\nfinal:\n<VALIDATOR_OUTPUT>\n$ a\nout\n"
            "exit=0\n$ b\nexit=3\n</VALIDATOR_OUTPUT>\nBLAME: kernel\nVERDICT: FAIL\n")
    parsed = returns.parse(text)
    assert (parsed.verdict, parsed.blame) == ("FAIL", "kernel")
    assert [(c.command, c.exit_code) for c in parsed.commands] == [("a", 0), ("b", 3)]
