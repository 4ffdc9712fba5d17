"""The porting skill's validators (skills/cutile-cpp-port/scripts/validate.py) on good and on broken
artifacts of each stage: each prints a return the orchestrator reads, with the verdict computed from the
artifacts and from cutile-ops' parity run, never from the agent's words."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

TREE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TREE / "tools" / "port"))
sys.path.insert(0, str(TREE / "skills" / "cutile-cpp-port" / "scripts"))

import validate  # noqa: E402
from cutile_port import pipeline, returns  # noqa: E402

BUILD = Path(os.environ.get("CUTILE_CPP_BUILD_DIR", TREE / "build"))
needs_cutile_ops = pytest.mark.skipif(not (BUILD / "tools" / "cutile-ops" / "cutile-ops").is_file(),
                                      reason=f"cutile-ops is not built in {BUILD}")
ANALYSIS = {
    "op": "transpose",
    "family": "gemm",
    "source": "TileGym src/tilegym/ops/cutile/transpose.py",
    "variants": [{"name": "transpose", "config": "M=4096 N=4096 E=bf16",
                  "reference": "tests/data/reference/tilegym/transpose.transpose.tileirbc"}],
    "dtypes": ["f32", "bf16"],
    "tolerances": {"f32": {"atol": 0, "rtol": 0}, "bf16": {"atol": 0, "rtol": 0}},
    "baseline": {"backend": "cutile"},
    "changeset": ["kernels/gemm/transpose.cpp"],
}


def validated(stage: str, run: Path, capsys, op: str = "transpose") -> returns.Return:
    """The stage's return, parsed and checked as the orchestrator does (MalformedReturn when it would ask
    for a repair)."""
    assert validate.main([stage, "--op", op, "--run", str(run), "--tree", str(TREE), "--build", str(BUILD)]) == 0
    return pipeline.checked(stage, returns.parse(capsys.readouterr().out))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def analyzed(tmp_path: Path, **changes) -> Path:
    write(tmp_path / "analyze" / "analysis.json", json.dumps({**ANALYSIS, **changes}))
    write(tmp_path / "analyze" / "report.md", "VERDICT: PASS\n")
    return tmp_path


def test_analyze(tmp_path, capsys):
    assert validated("analyze", analyzed(tmp_path), capsys).verdict == "PASS"
    broken = {k: v for k, v in ANALYSIS.items() if k != "baseline"}
    write(tmp_path / "analyze" / "analysis.json", json.dumps(broken))
    write(tmp_path / "analyze" / "report.md", "VERDICT: FAIL\n")
    assert validated("analyze", tmp_path, capsys).verdict == "FAIL"


def test_analyze_refuses_a_missing_reference_and_a_report_that_disagrees(tmp_path, capsys):
    variants = [{**ANALYSIS["variants"][0], "reference": "tests/data/reference/tilegym/none.tileirbc"}]
    analyzed(tmp_path, variants=variants)
    write(tmp_path / "analyze" / "report.md", "VERDICT: FAIL\n")
    assert validated("analyze", tmp_path, capsys).verdict == "FAIL"
    analyzed(tmp_path)
    write(tmp_path / "analyze" / "report.md", "VERDICT: FAIL\n")  # the computed verdict is PASS
    with pytest.raises(returns.MalformedReturn, match="VERDICT PASS but 'check .*report.md begins with"):
        validated("analyze", tmp_path, capsys)


@needs_cutile_ops
def test_kernel(tmp_path, capsys):
    analyzed(tmp_path)
    write(tmp_path / "kernel" / "interp.log", "[==========] 7 tests ran.\n[  PASSED  ] 7 tests.\n")
    write(tmp_path / "kernel" / "report.md", "VERDICT: PASS\n")
    assert validated("kernel", tmp_path, capsys).verdict == "PASS"
    write(tmp_path / "kernel" / "interp.log", "[  PASSED  ] 6 tests.\n[  FAILED  ] 1 test\n")
    write(tmp_path / "kernel" / "report.md", "VERDICT: FAIL\n")
    assert validated("kernel", tmp_path, capsys).verdict == "FAIL"


def test_kernel_without_its_ir_diff_record_fails(tmp_path, capsys):
    tree = tmp_path / "tree"
    for path in ("kernels/gemm/transpose.hpp", "kernels/gemm/transpose.cpp", "docs/ir-diff/transpose.md"):
        write(tree / path, (TREE / path).read_text())
    run = analyzed(tmp_path / "run")
    write(run / "kernel" / "interp.log", "[  PASSED  ] 7 tests.\n")
    write(run / "kernel" / "report.md", "VERDICT: FAIL\n")
    assert validate.main(["kernel", "--op", "transpose", "--run", str(run), "--tree", str(tree), "--build", str(BUILD)]) == 0
    result = pipeline.checked("kernel", returns.parse(capsys.readouterr().out))
    failed = {c.command for c in result.commands if c.exit_code}
    assert result.verdict == "FAIL"
    assert "check docs/ir-diff/transpose.json exists" in failed and "check docs/ir-diff/transpose.notes.md exists" in failed
    assert "check docs/ir-diff/transpose.md exists" not in failed


@needs_cutile_ops
def test_kernel_of_an_op_without_parity_fails(tmp_path, capsys):
    analyzed(tmp_path, op="no_such_op")
    write(tmp_path / "kernel" / "interp.log", "[  PASSED  ] 7 tests.\n")
    write(tmp_path / "kernel" / "report.md", "VERDICT: FAIL\n")
    result = validated("kernel", tmp_path, capsys, op="no_such_op")
    assert result.verdict == "FAIL" and any(c.exit_code for c in result.commands)


def junit(cases: list[tuple[str, str]], classname: str = "tests.ops.test_transpose.Test_Transpose") -> str:
    body = "".join(
        f'<testcase classname="{classname}" name="{name}">'
        + ('<failure message="mismatch"/>' if outcome == "failed" else "") + "</testcase>"
        for name, outcome in cases)
    return f'<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="{len(cases)}">{body}</testsuite></testsuites>'


@pytest.fixture
def tilegym_tests_transpose(tmp_path, monkeypatch):
    """A TileGym snapshot with a test of transpose, so that its own test is what the host stage must run."""
    write(tmp_path / "tilegym" / "tests" / "ops" / "test_transpose.py", "")
    monkeypatch.setenv("TILEGYM_DIR", str(tmp_path / "tilegym"))


@pytest.mark.usefixtures("tilegym_tests_transpose")
def test_host(tmp_path, capsys):
    write(tmp_path / "host" / "tilegym.xml", junit([("test_op[baseline-cutile_cpp-256-2048-torch.float16]", "passed"),
                                                    ("test_op[cutile-cpp-4096-bfloat16]", "passed")]))
    write(tmp_path / "host" / "report.md", "VERDICT: PASS\n")
    assert validated("host", tmp_path, capsys).verdict == "PASS"
    write(tmp_path / "host" / "tilegym.xml", junit([("test_op[cutile-cpp-512-float16]", "failed")]))
    write(tmp_path / "host" / "report.md", "VERDICT: FAIL\nowner: host\n")
    result = validated("host", tmp_path, capsys)
    assert (result.verdict, result.blame) == ("FAIL", "host")


@pytest.mark.usefixtures("tilegym_tests_transpose")
def test_host_refuses_cases_of_another_backend_and_a_failure_without_owner(tmp_path, capsys):
    write(tmp_path / "host" / "tilegym.xml", junit([("test_op[cutile-512-float16]", "passed")]))
    write(tmp_path / "host" / "report.md", "VERDICT: FAIL\n")
    with pytest.raises(returns.MalformedReturn, match="needs a 'BLAME"):
        validated("host", tmp_path, capsys)


def test_host_takes_the_stand_in_only_for_an_op_tilegym_has_no_test_of(tmp_path, capsys, monkeypatch):
    tilegym = tmp_path / "tilegym"
    write(tilegym / "tests" / "ops" / "test_softmax.py", "")
    monkeypatch.setenv("TILEGYM_DIR", str(tilegym))
    run = tmp_path / "run"
    stand_in = junit([("test_the_reference_tests_configurations_on_the_gpu[cutile-cpp-1024-float16]", "passed")],
                     classname="tests.python.test_transpose")
    write(run / "host" / "tilegym.xml", stand_in)
    write(run / "host" / "report.md", "VERDICT: PASS\n")
    assert validated("host", run, capsys).verdict == "PASS"
    # Another test of that file is not the stand-in.
    write(run / "host" / "tilegym.xml", junit([("test_errors[cutile-cpp]", "passed")], classname="tests.python.test_transpose"))
    write(run / "host" / "report.md", "VERDICT: FAIL\nowner: host\n")
    assert validated("host", run, capsys).verdict == "FAIL"
    # Once TileGym has the op's test, only TileGym's own test counts.
    write(tilegym / "tests" / "ops" / "test_transpose.py", "")
    write(run / "host" / "tilegym.xml", stand_in)
    assert validated("host", run, capsys).verdict == "FAIL"


def bench(tmp_path: Path, pairs: list) -> None:
    configs = [{"id": f"c{k}", "results": {"cutile-cpp": {"status": "ok", "median_ms": ours},
                                           "cutile": {"status": "ok" if theirs else "error", "median_ms": theirs}}}
               for k, (ours, theirs) in enumerate(pairs)]
    write(tmp_path / "benchmark" / "bench.json", json.dumps({"ops": {"transpose": {"configs": configs}}}))


def test_benchmark(tmp_path, capsys):
    analyzed(tmp_path)
    bench(tmp_path, [(1.0, 1.1), (2.0, 1.9)])
    write(tmp_path / "benchmark" / "report.md", "VERDICT: PASS\n")
    assert validated("benchmark", tmp_path, capsys).verdict == "PASS"
    bench(tmp_path, [(1.0, 0.8), (2.0, 1.6)])
    write(tmp_path / "benchmark" / "report.md", "VERDICT: MISS\n")
    assert validated("benchmark", tmp_path, capsys).verdict == "MISS"
    bench(tmp_path, [(1.0, None)])
    result = validated("benchmark", tmp_path, capsys)
    assert (result.verdict, result.blame) == ("BLOCKED", "env")


@needs_cutile_ops
def test_ir_diff(tmp_path, capsys):
    write(tmp_path / "ir_diff" / "report.md", "VERDICT: PASS_WITH_NOTES\n")  # transpose's committed diff
    assert validated("ir_diff", tmp_path, capsys).verdict == "PASS_WITH_NOTES"
    write(tmp_path / "ir_diff" / "report.md", "VERDICT: FAIL\nowner: kernel\n")  # the parity run says otherwise
    with pytest.raises(returns.MalformedReturn, match="VERDICT PASS_WITH_NOTES but"):
        validated("ir_diff", tmp_path, capsys)


def test_residual(tmp_path, capsys):
    write(tmp_path / "residual" / "sass.txt", "the evidence\n")
    write(tmp_path / "residual" / "report.md", "VERDICT: FIXABLE\nowner: kernel\nevidence: residual/sass.txt\n")
    result = validated("residual", tmp_path, capsys)
    assert (result.verdict, result.blame) == ("FIXABLE", "kernel")
    write(tmp_path / "residual" / "report.md", "VERDICT: FIXABLE\nowner: kernel\nevidence: residual/none.txt\n")
    with pytest.raises(returns.MalformedReturn, match="needs a 'BLAME"):  # a claim without its evidence
        validated("residual", tmp_path, capsys)


def test_preflight_names_what_is_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TILEGYM_DIR", str(tmp_path / "no_tilegym"))
    assert validate.main(["preflight", "--op", "transpose", "--run", str(tmp_path), "--tree", str(TREE)]) == 0
    result = returns.parse(capsys.readouterr().out)  # the run's first step, before the pipeline's stages
    assert (result.verdict, result.blame) == ("BLOCKED", "env")
    failed = [c.command for c in result.commands if c.exit_code]
    # Where the tree's build has no cutile-ops (a GPU machine's partial build), that check fails too.
    assert [c for c in failed if not c.startswith("check cutile-ops built in ")] == [
        "check TILEGYM_DIR holds TileGym's tests/ops"
    ]


@needs_cutile_ops
def test_the_softmax_walkthrough_still_validates(capsys):
    """skills/cutile-cpp-port/examples/softmax: each stage's validator, run again on the committed
    artifacts and today's tree, gives the verdict the run recorded, and the run is done."""
    run = TREE / "skills" / "cutile-cpp-port" / "examples" / "softmax" / "run"
    state = pipeline.load(run)
    assert state.outcome == "DONE"
    for step in state.steps:
        assert validated(step.stage, run, capsys, op="softmax").verdict == step.verdict, step.stage
