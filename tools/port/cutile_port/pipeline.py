"""The porting pipeline's state machine: which stage runs next, from the verdicts so far.

Stages, in the order of the green path: analyze -> kernel -> host -> benchmark, then the final check of the
output contract. A failing stage is routed by its verdict and blame tag (host, kernel, env): a host fault
reruns the host stage, a kernel fault goes through the IR-diff analyst (ir_diff), whose blame sends it back
to the kernel writer or to the host stage, a benchmark miss goes to the residual investigator, and env
stops the run. Each stage runs at most its cap of times. A malformed return is sent back to the same
stage once for repair, which does not count as a run; a second one stops the run.

The state is a JSON file in the run's directory, so a run resumes where it stopped; each stage's
artifacts are in <run>/<stage>/ and each return is kept under <run>/returns/.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import returns

CAPS = {"analyze": 1, "kernel": 2, "ir_diff": 1, "host": 2, "benchmark": 2, "residual": 1}
TITLES = {
    "analyze": "analyze the reference",
    "kernel": "write the kernel",
    "ir_diff": "analyse the IR diff",
    "host": "write the host side and bindings",
    "benchmark": "benchmark the port",
    "residual": "investigate the residual performance",
}
# Per stage: its verdicts; those that pass (every command must then have exited 0); those that need a
# blame tag.
VERDICTS = {
    "analyze": ({"PASS", "FAIL", "BLOCKED"}, {"PASS"}, {"BLOCKED"}),
    "kernel": ({"PASS", "FAIL", "BLOCKED"}, {"PASS"}, {"BLOCKED"}),
    "ir_diff": ({"PASS", "PASS_WITH_NOTES", "FAIL", "COMPILER_BUG"}, {"PASS", "PASS_WITH_NOTES"}, {"FAIL"}),
    "host": ({"PASS", "FAIL", "BLOCKED"}, {"PASS"}, {"FAIL", "BLOCKED"}),
    "benchmark": ({"PASS", "MISS", "BLOCKED"}, {"PASS", "MISS"}, {"BLOCKED"}),
    "residual": ({"FIXABLE", "ALIGNED", "BLOCKED"}, {"ALIGNED"}, {"FIXABLE"}),
}
STATE_FILE = "state.json"


@dataclass
class Step:
    stage: str
    run: int  # 1 for the first run of the stage
    verdict: str | None = None
    blame: str | None = None
    repair: str | None = None  # the problem of a malformed return, while its repair is awaited
    started: str | None = None  # UTC times: when the step was routed to, and when its return was taken
    ended: str | None = None


@dataclass
class State:
    op: str
    skill: str
    tree: str
    steps: list[Step] = field(default_factory=list)
    outcome: str | None = None  # set when the run has ended: DONE, BELOW_TARGET or STOPPED
    reason: str | None = None

    def runs(self, stage: str) -> int:
        return sum(1 for s in self.steps if s.stage == stage)


def start(run_dir: Path, op: str, skill: Path, tree: Path) -> State:
    run_dir.mkdir(parents=True, exist_ok=True)
    if (run_dir / STATE_FILE).exists():
        raise FileExistsError(f"{run_dir} already holds a run; resume it with next/record")
    state = State(op, str(skill), str(tree), [Step("analyze", 1, started=now())])
    save(run_dir, state)
    return state


def load(run_dir: Path) -> State:
    try:
        data = json.loads((run_dir / STATE_FILE).read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"{run_dir} holds no run (no {STATE_FILE}); begin one with start") from None
    steps = [Step(**s) for s in data.pop("steps")]
    return State(**data, steps=steps)


def save(run_dir: Path, state: State) -> None:
    temporary = run_dir / (STATE_FILE + ".tmp")
    temporary.write_text(json.dumps(asdict(state), indent=1) + "\n")
    temporary.replace(run_dir / STATE_FILE)


def prompt(run_dir: Path, state: State) -> str:
    """The minimal prompt of the awaited step: where its instructions are, where to write, what came
    before (paths, never summaries), and for a repair what was wrong."""
    step = state.steps[-1]
    earlier = [str(run_dir / s.stage) for s in state.steps[:-1] if s.verdict is not None]
    lines = [
        f"Stage {step.stage} ({TITLES[step.stage]}), run {step.run}, of porting the op {state.op}.",
        f"Follow {Path(state.skill) / 'agents' / (step.stage + '.md')}.",
        f"The tree: {state.tree}. Write your artifacts under {run_dir / step.stage}.",
        "Earlier stages' artifacts: " + (", ".join(dict.fromkeys(earlier)) if earlier else "none"),
    ]
    if step.repair:
        lines.append(f"Your last return was malformed: {step.repair}. Return it again, repaired; change nothing else.")
    return "\n".join(lines)


def record(run_dir: Path, state: State, text: str) -> State:
    """Takes the awaited step's return and routes."""
    if state.outcome:
        raise RuntimeError(f"the run has ended ({state.outcome}: {state.reason})")
    step = state.steps[-1]
    kept = run_dir / "returns" / f"{len(state.steps):02d}_{step.stage}_{step.run}{'_repair' if step.repair else ''}.txt"
    kept.parent.mkdir(exist_ok=True)
    kept.write_text(text)
    try:
        result = checked(step.stage, returns.parse(text))
    except returns.MalformedReturn as problem:
        if step.repair:
            return finish(run_dir, state, "STOPPED", f"{step.stage}: the repaired return is malformed too: {problem}")
        step.repair = str(problem)
        save(run_dir, state)
        return state
    step.verdict, step.blame, step.repair, step.ended = result.verdict, result.blame, None, now()
    route(run_dir, state, step)
    save(run_dir, state)
    return state


def checked(stage: str, result: returns.Return) -> returns.Return:
    verdicts, passing, blamed = VERDICTS[stage]
    if result.verdict not in verdicts:
        raise returns.MalformedReturn(f"VERDICT {result.verdict} is not one of {stage}'s: {', '.join(sorted(verdicts))}")
    failed = [c.command for c in result.commands if c.exit_code != 0]
    if result.verdict in passing and failed:
        raise returns.MalformedReturn(f"VERDICT {result.verdict} but '{failed[0]}' exited non-zero")
    if result.verdict in blamed and result.blame is None:
        raise returns.MalformedReturn(f"VERDICT {result.verdict} needs a 'BLAME: host|kernel|env' line")
    return result


def route(run_dir: Path, state: State, step: Step) -> None:
    stage, verdict, blame = step.stage, step.verdict, step.blame
    if blame == "env":
        finish(run_dir, state, "STOPPED", f"{stage}: {verdict}, blamed on the environment")
    elif stage == "analyze":
        go(run_dir, state, "kernel") if verdict == "PASS" else finish(run_dir, state, "STOPPED", f"analyze: {verdict}")
    elif stage == "kernel":
        if verdict == "PASS":
            go(run_dir, state, "host")
        elif verdict == "FAIL":
            go(run_dir, state, "ir_diff")
        else:
            finish(run_dir, state, "STOPPED", f"kernel: {verdict}")
    elif stage == "host":
        if verdict == "PASS":
            go(run_dir, state, "benchmark")
        else:
            go(run_dir, state, "host" if blame == "host" else "ir_diff")
    elif stage == "ir_diff":
        if verdict == "FAIL":
            go(run_dir, state, blame)
        elif verdict == "COMPILER_BUG":
            finish(run_dir, state, "STOPPED", "ir_diff: a compiler bug, with no known workaround")
        else:
            finish(run_dir, state, "STOPPED", f"ir_diff: {verdict}, no translation error to route to")
    elif stage == "benchmark":
        if verdict == "PASS":
            missing = contract_gaps(run_dir, state)
            if missing:
                finish(run_dir, state, "STOPPED", "the output contract is not met: " + "; ".join(missing))
            else:
                finish(run_dir, state, "DONE", "every stage passed and the output contract holds")
        elif verdict == "MISS":
            go(run_dir, state, "residual")
        else:
            finish(run_dir, state, "STOPPED", f"benchmark: {verdict}")
    elif stage == "residual":
        if verdict == "FIXABLE":
            go(run_dir, state, blame)
        elif verdict == "ALIGNED":
            finish(run_dir, state, "BELOW_TARGET", "the benchmark misses its target and the residual is aligned")
        else:
            finish(run_dir, state, "STOPPED", f"residual: {verdict}")


def go(run_dir: Path, state: State, stage: str) -> None:
    if state.runs(stage) >= CAPS[stage]:
        finish(run_dir, state, "STOPPED", f"cap: {stage} has run {CAPS[stage]} time(s)")
        return
    state.steps.append(Step(stage, state.runs(stage) + 1, started=now()))


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def finish(run_dir: Path, state: State, outcome: str, reason: str) -> State:
    state.outcome, state.reason = outcome, reason
    save(run_dir, state)
    return state


def contract_gaps(run_dir: Path, state: State) -> list[str]:
    """What the finished port lacks: each stage that ran has its report, whose first line is the verdict
    of its last run; analysis.json names the changeset, and each of its files is in the tree."""
    gaps = []
    last = {s.stage: s for s in state.steps}
    for s in last.values():
        report = run_dir / s.stage / "report.md"
        if not report.is_file():
            gaps.append(f"{report} is missing")
            continue
        first = report.read_text().splitlines()[:1]
        if s.verdict is not None and first != [f"VERDICT: {s.verdict}"]:
            gaps.append(f"{report} does not begin with 'VERDICT: {s.verdict}'")
    analysis = run_dir / "analyze" / "analysis.json"
    try:
        changeset = json.loads(analysis.read_text())["changeset"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        return gaps + [f"{analysis} names no changeset ({type(e).__name__})"]
    gaps += [f"{path} (changeset) is not in the tree" for path in changeset if not (Path(state.tree) / path).is_file()]
    return gaps
