#!/usr/bin/env python3
"""The validator of each stage of a port: it runs its checks and prints the stage's return, a
<VALIDATOR_OUTPUT> block (each check as `$ command`, what it printed, `exit=N`), then `BLAME:` where the
verdict needs one, then `VERDICT:`. The verdict is computed here, from the artifacts and from commands
run here, never taken from the agent's words; the agent returns this output as it is.

    validate.py STAGE --op OP --run RUN_DIR [--tree TREE] [--build BUILD]

STAGE: preflight, analyze, kernel, ir_diff, host, benchmark, residual. Each stage's report is
RUN_DIR/<stage>/report.md, whose first line must be the verdict computed here (run the validator, write
the report with its verdict, run it again): a passing verdict over a failed check is a malformed return,
which the pipeline sends back for repair. What each stage checks is in references/output-contract.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools" / "port"))
from cutile_port.pipeline import VERDICTS  # noqa: E402  (each stage's verdicts, and those that need a blame)

# The python tier's test of an op at TileGym's test configurations, through tilegym.ops with our backend.
STAND_IN_TEST = "test_the_reference_tests_configurations_on_the_gpu"
REQUIRED_ANALYSIS = ("op", "family", "source", "variants", "dtypes", "tolerances", "baseline", "changeset")


class Checks:
    """The checks of one validation, in order, as the block shows them."""

    def __init__(self):
        self.lines: list[str] = []
        self.failed: list[str] = []

    def check(self, what: str, ok: bool, detail: str = "") -> bool:
        self.lines += [f"$ check {what}"] + ([detail] if detail else []) + [f"exit={0 if ok else 1}"]
        if not ok:
            self.failed.append(what)
        return ok

    def run(self, command: list[str], cwd: Path, ok_codes=(0,), timeout_s=600) -> subprocess.CompletedProcess | None:
        try:
            done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout_s)
        except (OSError, subprocess.TimeoutExpired) as e:
            self.lines += [f"$ {' '.join(command)}", str(e), "exit=127"]
            self.failed.append(command[0])
            return None
        output = (done.stdout + done.stderr).strip().splitlines()[-20:]
        # exit= says whether the check passed; a status the check accepts (cutile-ops' 2, PASS_WITH_NOTES)
        # is shown as such.
        code = 0 if done.returncode in ok_codes else done.returncode or 1
        accepted = [f"(status {done.returncode}, accepted)"] if done.returncode and not code else []
        self.lines += [f"$ {' '.join(command)}", *output, *accepted, f"exit={code}"]
        if code:
            self.failed.append(command[0])
        return done

    def emit(self, verdict: str, blame: str | None = None) -> str:
        tail = ([f"BLAME: {blame}"] if blame else []) + [f"VERDICT: {verdict}"]
        return "\n".join(["<VALIDATOR_OUTPUT>", *self.lines, "</VALIDATOR_OUTPUT>", *tail]) + "\n"


def report_agrees(checks: Checks, run: Path, stage: str, verdict: str) -> None:
    report = run / stage / "report.md"
    first = report.read_text().splitlines()[:1] if report.is_file() else []
    checks.check(f"{report} begins with 'VERDICT: {verdict}'", first == [f"VERDICT: {verdict}"],
                 f"its first line: {first[0]!r}" if first else "no report")


def parity(checks: Checks, args, ok_codes) -> subprocess.CompletedProcess | None:
    """cutile-ops' parity run of the op: its IR diffs against the committed references."""
    return checks.run([str(args.build / "tools" / "cutile-ops" / "cutile-ops"), "parity", "--op", args.op], args.tree,
                      ok_codes=ok_codes)


def load_analysis(checks: Checks, run: Path) -> dict | None:
    path = run / "analyze" / "analysis.json"
    try:
        analysis = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        checks.check(f"{path} is JSON", False, str(e))
        return None
    missing = [k for k in REQUIRED_ANALYSIS if k not in analysis]
    checks.check(f"{path} has {', '.join(REQUIRED_ANALYSIS)}", not missing, f"missing: {', '.join(missing)}" if missing else "")
    return None if missing else analysis


def tilegym_dir(tree: Path) -> Path:
    return Path(os.environ.get("TILEGYM_DIR") or tree / ".carry" / "pack" / "tilegym")  # else the pack's copy


def tilegym_lacks_tests_of(op: str, tree: Path) -> bool:
    """Whether TileGym's snapshot is there and has no tests/ops/**/test_<op>.py (an op only a newer TileGym
    has: its tests are written at TileGym-like configurations, tests/python/test_<op>.py)."""
    ops = tilegym_dir(tree) / "tests" / "ops"
    return ops.is_dir() and not any(ops.rglob(f"test_{op}.py"))


def validate_preflight(checks: Checks, args) -> tuple[str, str | None]:
    toolchain = Path(os.environ.get("CUTILE_TOOLCHAIN_DIR", args.tree / ".toolchain"))
    tileiras = toolchain / "python" / "nvidia" / "cu13" / "bin" / "tileiras"
    checks.check(f"tileiras at {tileiras}", tileiras.is_file() or shutil.which("tileiras") is not None)
    checks.check(f"cutile-ops built in {args.build}", (args.build / "tools" / "cutile-ops" / "cutile-ops").is_file())
    tilegym = tilegym_dir(args.tree)
    checks.check("TILEGYM_DIR holds TileGym's tests/ops", (tilegym / "tests" / "ops").is_dir(), f"TILEGYM_DIR={tilegym}")
    return ("PASS", None) if not checks.failed else ("BLOCKED", "env")


def validate_analyze(checks: Checks, args) -> tuple[str, str | None]:
    analysis = load_analysis(checks, args.run)
    if analysis:
        checks.check(f"analysis.json is of {args.op}", analysis["op"] == args.op, f"op: {analysis['op']}")
        variants = analysis["variants"] if isinstance(analysis["variants"], list) else []
        checks.check("every variant has a name, a configuration and a reference", bool(variants) and all(
            isinstance(v, dict) and {"name", "config", "reference"} <= set(v) for v in variants))
        for v in variants:
            if isinstance(v, dict) and "reference" in v:
                checks.check(f"reference {v['reference']} exists", (args.tree / v["reference"]).is_file())
        tolerances = analysis["tolerances"]
        checks.check("a tolerance (atol, rtol) for every dtype", isinstance(tolerances, dict) and set(tolerances) ==
                     set(analysis["dtypes"]) and all({"atol", "rtol"} <= set(t) for t in tolerances.values()))
        checks.check("the baseline is cuTile Python or Triton", analysis["baseline"].get("backend") in ("cutile", "triton"))
    verdict = "FAIL" if checks.failed else "PASS"
    report_agrees(checks, args.run, "analyze", verdict)
    return verdict, None


def validate_kernel(checks: Checks, args) -> tuple[str, str | None]:
    analysis = load_analysis(checks, args.run)
    family = analysis["family"] if analysis else "?"
    for suffix in ("hpp", "cpp"):
        path = Path("kernels") / family / f"{args.op}.{suffix}"
        checks.check(f"{path} exists", (args.tree / path).is_file())
    parity(checks, args, ok_codes=(0, 2))
    for suffix in ("md", "json", "notes.md"):  # the IR diff's record, part of every changeset
        path = Path("docs") / "ir-diff" / f"{args.op}.{suffix}"
        checks.check(f"{path} exists", (args.tree / path).is_file())
    log = args.run / "kernel" / "interp.log"
    text = log.read_text() if log.is_file() else ""
    passed = [line for line in text.splitlines() if line.startswith("[  PASSED  ]")]
    checks.check(f"{log}: the interpreter tests passed", bool(passed) and "[  FAILED  ]" not in text,
                 passed[-1] if passed else "no gtest summary")
    verdict = "FAIL" if checks.failed else "PASS"
    report_agrees(checks, args.run, "kernel", verdict)
    return verdict, None


def validate_host(checks: Checks, args) -> tuple[str, str | None]:
    xml = args.run / "host" / "tilegym.xml"
    try:
        suite = ET.parse(xml).getroot()
        suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
        cases = list(suite.iter("testcase"))
    except (OSError, ET.ParseError, AttributeError) as e:
        checks.check(f"{xml} is pytest's JUnit XML", False, str(e))
        return "BLOCKED", "host"
    ran = [c for c in cases if c.find("skipped") is None]
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if tilegym_lacks_tests_of(args.op, args.tree):
        stand_in = f"tests.python.test_{args.op}"
        what = f"TileGym has no test_{args.op}.py: its stand-in ran ({stand_in}::{STAND_IN_TEST})"
        expected = lambda c: c.get("classname") == stand_in and c.get("name", "").startswith(STAND_IN_TEST)  # noqa: E731
    else:
        what, expected = "TileGym's tests ran", lambda c: c.get("classname", "").startswith("tests.ops.")
    checks.check(what, bool(ran) and all(expected(c) for c in cases), f"{len(ran)} ran, {len(cases) - len(ran)} skipped")
    # TileGym's test ids name the backend as cutile_cpp (a parameter id) or cutile-cpp.
    checks.check("every case ran on the backend cutile-cpp",
                 all("cutile_cpp" in c.get("name", "") or "cutile-cpp" in c.get("name", "") for c in cases))
    checks.check("none failed", not failed, "\n".join(f"FAILED {c.get('classname')}::{c.get('name')}" for c in failed[:10]))
    verdict = "FAIL" if checks.failed else "PASS"
    report_agrees(checks, args.run, "host", verdict)
    return verdict, None if verdict == "PASS" else blame_of(args.run / "host" / "report.md")


def validate_benchmark(checks: Checks, args) -> tuple[str, str | None]:
    analysis = load_analysis(checks, args.run)
    path = args.run / "benchmark" / "bench.json"
    try:
        configs = json.loads(path.read_text())["ops"][args.op]["configs"]
    except (OSError, ValueError, KeyError) as e:
        checks.check(f"{path} holds {args.op}'s configurations", False, f"{type(e).__name__}: {e}")
        return "BLOCKED", "env"
    baseline = analysis["baseline"]["backend"] if analysis else "cutile"
    ratios = []
    for c in configs:
        res = c.get("results", {})
        ours, theirs = res.get("cutile-cpp", {}), res.get(baseline, {})
        if ours.get("status") == "ok" and theirs.get("status") == "ok":
            ratios.append(theirs["median_ms"] / ours["median_ms"])
    if not checks.check(f"configurations measured on both cutile-cpp and {baseline}", bool(ratios),
                        f"{len(ratios)} of {len(configs)}"):
        return "BLOCKED", "env"
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    target = float(analysis["baseline"].get("target", 0.95)) if analysis else 0.95
    verdict = "PASS" if geomean >= target else "MISS"
    checks.check(f"geomean {baseline} time / cutile-cpp time over {len(ratios)} configurations", True,
                 f"geomean_ratio={geomean:.4f} (target {target})")
    report_agrees(checks, args.run, "benchmark", verdict)
    return verdict, None


def validate_ir_diff(checks: Checks, args) -> tuple[str, str | None]:
    """The parity run decides PASS, PASS_WITH_NOTES or a divergence; the analyst's report classes a
    divergence as a translation error (FAIL, with its owner) or a compiler bug, with evidence."""
    done = parity(checks, args, ok_codes=(0, 1, 2))
    computed = {0: "PASS", 2: "PASS_WITH_NOTES"}.get(done.returncode if done else 3)
    return validate_judged("ir_diff", ["FAIL", "COMPILER_BUG"] if computed is None else [computed], checks, args)


def validate_judged(stage: str, verdicts: list, checks: Checks, args) -> tuple[str, str | None]:
    """The report's verdict, one of `verdicts`, held to its evidence; one that routes by its owner (the
    stage's blamed verdicts) needs an owner."""
    report = args.run / stage / "report.md"
    lines = report.read_text().splitlines() if report.is_file() else []
    first = lines[0].removeprefix("VERDICT: ") if lines and lines[0].startswith("VERDICT: ") else None
    checks.check(f"{report} begins with a verdict of {', '.join(verdicts)}", first in verdicts, f"first line: {lines[:1]}")
    if first not in verdicts:
        return next(iter(verdicts)), None
    evidence = [line.split(":", 1)[1].strip() for line in lines if line.startswith("evidence:")]
    if first not in ("PASS", "PASS_WITH_NOTES"):  # those the parity run computed
        checks.check("each evidence file it cites exists", bool(evidence) and all((args.run / e).exists() for e in evidence),
                     "\n".join(evidence) or "no 'evidence: PATH' line")
    blame = blame_of(report)
    owned = first in VERDICTS[stage][2]
    if owned:
        checks.check("an owner: host or kernel", blame in ("host", "kernel"), f"owner: {blame}")
    # A verdict that routes by its owner is returned without one when its evidence fails: the pipeline
    # then asks for a repair instead of routing on an unsupported claim.
    return first, blame if owned and not checks.failed else None


def blame_of(report: Path) -> str | None:
    """The report's `owner: host|kernel|env` line."""
    if not report.is_file():
        return None
    for line in report.read_text().splitlines():
        if line.startswith("owner:"):
            return line.split(":", 1)[1].strip() or None
    return None


STAGES = {
    "preflight": validate_preflight,
    "analyze": validate_analyze,
    "kernel": validate_kernel,
    "host": validate_host,
    "benchmark": validate_benchmark,
    "ir_diff": validate_ir_diff,
    "residual": lambda c, a: validate_judged("residual", ["FIXABLE", "ALIGNED", "BLOCKED"], c, a),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stage", choices=sorted(STAGES))
    parser.add_argument("--op", required=True)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[3])
    parser.add_argument("--build", type=Path)
    args = parser.parse_args(argv)
    args.build = args.build or args.tree / "build"
    checks = Checks()
    verdict, blame = STAGES[args.stage](checks, args)
    sys.stdout.write(checks.emit(verdict, blame))
    return 0


if __name__ == "__main__":
    sys.exit(main())
