"""cutile-port: runs the porting pipeline (cutile_port/pipeline.py says how it routes).

    cutile-port start OP --run DIR --skill DIR --tree DIR   begin a run
    cutile-port next --run DIR                              the awaited stage and its prompt (JSON)
    cutile-port record --run DIR FILE                       take that stage's return (FILE, or - for stdin)
    cutile-port run OP --run DIR --skill DIR --tree DIR --agent CMD [--timeout-s S]
        drive a whole run (or resume one): for each stage, CMD STAGE INSTRUCTIONS RUN_STAGE_DIR gets the
        prompt on stdin and prints its return
    cutile-port batch OP... --runs DIR --skill DIR --tree DIR --agent CMD [--timeout-s S]
        port each op again in a worktree without its implementation (cutile_port/batch.py), and commit
        each port that finishes onto the tree; DIR/<op>/ keeps every try's run and, for a failed one, its
        worktree
    cutile-port batch-begin OP --runs DIR --skill DIR --tree DIR
        begin the op's next try as batch does, and print its first step (carry it with next/record on the
        run directory it names)
    cutile-port batch-end OP --runs DIR --tree DIR
        end the op's last try as batch does: commit a finished port onto the tree, or keep the trail

`next` and `record` let an agent that starts helper agents of its own carry a run one step at a time.
Exit status: 0 when the run is done (batch, batch-end: every op committed), 1 when it stopped or ended
below target, 2 for bad usage, 3 while a step is awaited (start, next, record, batch-begin).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

from . import batch, pipeline


def _status(state: pipeline.State) -> int:
    if state.outcome is None:
        return 3
    return 0 if state.outcome == "DONE" else 1


def _awaited(run_dir: Path, state: pipeline.State) -> dict:
    if state.outcome:
        return {"outcome": state.outcome, "reason": state.reason}
    step = state.steps[-1]
    return {
        "stage": step.stage,
        "run": step.run,
        "repair": step.repair,
        "instructions": str(Path(state.skill) / "agents" / f"{step.stage}.md"),
        "artifacts": str(run_dir / step.stage),
        "prompt": pipeline.prompt(run_dir, state),
    }


def _drive(run_dir: Path, state: pipeline.State, agent: list[str], timeout_s: float) -> pipeline.State:
    while state.outcome is None:
        awaited = _awaited(run_dir, state)
        Path(awaited["artifacts"]).mkdir(parents=True, exist_ok=True)
        command = agent + [awaited["stage"], awaited["instructions"], awaited["artifacts"]]
        try:
            done = subprocess.run(command, input=awaited["prompt"], capture_output=True, text=True, timeout=timeout_s)
            text = done.stdout
        except subprocess.TimeoutExpired:
            text = f"(the agent ran past {timeout_s} s)"
        except OSError as e:
            return pipeline.finish(run_dir, state, "STOPPED", f"the agent command cannot run: {e}")
        state = pipeline.record(run_dir, state, text)
        print(f"{awaited['stage']} {awaited['run']}: " + (state.steps[-1].repair and "malformed, repair asked"
              or _last_verdict(state)), file=sys.stderr)
    return state


def _last_verdict(state: pipeline.State) -> str:
    judged = [s for s in state.steps if s.verdict is not None]
    return f"{judged[-1].verdict}" + (f" ({judged[-1].blame})" if judged[-1].blame else "") if judged else ""


def _attempted(attempt: batch.Attempt) -> dict:
    return {"outcome": attempt.outcome, "reason": attempt.reason, "tries": attempt.tries,
            "runs": [str(r) for r in attempt.run_dirs], "committed": attempt.committed}


def _batch(args) -> int:
    agent = shlex.split(args.agent)

    def drive(run_dir: Path) -> None:
        _drive(run_dir, pipeline.load(run_dir), agent, args.timeout_s)

    results = {}
    for op in args.ops:
        try:
            results[op] = _attempted(batch.port(args.tree, op, args.runs, args.skill, drive))
        except (OSError, ValueError, RuntimeError) as e:
            results[op] = {"outcome": "STOPPED", "reason": str(e)}
    print(json.dumps(results, indent=1))
    return 0 if all(r.get("committed") for r in results.values()) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cutile-port", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("start", "run"):
        sub = commands.add_parser(name)
        sub.add_argument("op")
        sub.add_argument("--run", type=Path, required=True)
        sub.add_argument("--skill", type=Path, required=True)
        sub.add_argument("--tree", type=Path, required=True)
        if name == "run":
            sub.add_argument("--agent", required=True, help="the agent command (split like a shell would)")
            sub.add_argument("--timeout-s", type=float, default=3600.0)
    many = commands.add_parser("batch")
    many.add_argument("ops", nargs="+")
    many.add_argument("--runs", type=Path, required=True)
    many.add_argument("--skill", type=Path, required=True)
    many.add_argument("--tree", type=Path, required=True)
    many.add_argument("--agent", required=True)
    many.add_argument("--timeout-s", type=float, default=3600.0)
    begin = commands.add_parser("batch-begin")
    end = commands.add_parser("batch-end")
    for sub in (begin, end):
        sub.add_argument("op")
        sub.add_argument("--runs", type=Path, required=True)
        sub.add_argument("--tree", type=Path, required=True)
    begin.add_argument("--skill", type=Path, required=True)
    commands.add_parser("next").add_argument("--run", type=Path, required=True)
    record = commands.add_parser("record")
    record.add_argument("--run", type=Path, required=True)
    record.add_argument("file")
    args = parser.parse_args(argv)

    if args.command == "batch":
        return _batch(args)
    try:
        if args.command == "batch-end":
            attempt = batch.end(args.tree, args.op, args.runs)
            print(json.dumps({args.op: _attempted(attempt)}, indent=1))
            return 0 if attempt.committed else 1
        if args.command == "batch-begin":
            args.run = batch.begin(args.tree, args.op, args.runs, args.skill)
            state = pipeline.load(args.run)
        elif args.command == "start":
            state = pipeline.start(args.run, args.op, args.skill, args.tree)
        elif args.command == "run":
            if (args.run / pipeline.STATE_FILE).exists():
                state = pipeline.load(args.run)
                if state.op != args.op:
                    raise ValueError(f"{args.run} holds a run of {state.op}, not {args.op}")
            else:
                state = pipeline.start(args.run, args.op, args.skill, args.tree)
            state = _drive(args.run, state, shlex.split(args.agent), args.timeout_s)
        elif args.command == "next":
            state = pipeline.load(args.run)
        else:
            state = pipeline.load(args.run)
            text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
            state = pipeline.record(args.run, state, text)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"cutile-port: {e}", file=sys.stderr)
        return 2
    named = {"run_dir": str(args.run)} if args.command == "batch-begin" else {}
    print(json.dumps({**named, **_awaited(args.run, state)}, indent=1))
    return _status(state)


if __name__ == "__main__":
    sys.exit(main())
