"""The batch driver: ports ops again from their references, each in a fresh git worktree from which the
op's implementation is removed, so that the agents must translate it; a port that the pipeline finishes
(DONE: every stage's verdict passed and the output contract holds) is applied to the tree and committed.
A failed try keeps its worktree and run directory as the trail; an op gets at most two tries.

A try is begun (`begin`: hide, start the run), carried (by an agent command, or step by step with
next/record) and ended (`end`: accept and commit, or keep the trail). What a try needs between those
steps is on disk, in RUNS/<op>/try<N>/, so a try that is carried by hand survives the driver's exit.

The op's implementation is what the tree holds of docs/adding-an-op.md's changeset under its name: its
kernel header and source, its interpreter and python tests and its benchmark spec. The reference data
(recipes, exported bytecode, IR-diff reports) stays: it is the port's input.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import pipeline

TRIES = 2
TRY_FILE = "batch.json"  # in a try's run directory: the hidden base commit, the worktree, the commit made


def implementation(tree: Path, op: str) -> list[str]:
    """The tracked files of the op's implementation in `tree`."""
    patterns = [f"kernels/*/{op}.hpp", f"kernels/*/{op}.cpp", f"tests/interp/{op}_test.cpp",
                f"tests/python/test_{op}.py", f"bench/ops/specs/{op}.py"]
    return git(tree, "ls-files", "--", *patterns).split()


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args)} in {repo}: {done.stderr.strip()}")
    return done.stdout


def hide(tree: Path, op: str, worktree: Path) -> str:
    """A detached worktree of the tree's HEAD at `worktree`, with the op's implementation removed and that
    removal committed there; returns the commit the port starts from."""
    files = implementation(tree, op)
    if not files:
        raise ValueError(f"the tree holds no implementation of {op} to port again")
    git(tree, "worktree", "add", "--detach", str(worktree), "HEAD")
    git(worktree, "rm", "-q", "--", *files)
    git(worktree, "-c", "user.name=cutile-port", "-c", "user.email=cutile-port@localhost",
        "commit", "-q", "-m", f"{op} hidden for its port")
    return git(worktree, "rev-parse", "HEAD").strip()


def captured(worktree: Path, base: str) -> str:
    """The port, as a patch against the hidden base."""
    git(worktree, "add", "-A")
    return git(worktree, "diff", "--cached", "--binary", base)


@dataclass
class Attempt:
    op: str
    tries: int
    outcome: str
    reason: str
    run_dirs: list[Path]
    committed: str | None  # the commit made in the tree on acceptance


def try_dirs(runs: Path, op: str) -> list[Path]:
    """The op's tries so far, in order."""
    return [runs / op / f"try{n}" for n in range(1, TRIES + 1) if (runs / op / f"try{n}" / TRY_FILE).is_file()]


def refuse_uncommitted(tree: Path) -> None:
    if git(tree, "status", "--porcelain", "--untracked-files=no").strip():
        raise ValueError(f"{tree} has uncommitted changes: a port is committed onto a clean tree")


def begin(tree: Path, op: str, runs: Path, skill: Path) -> Path:
    """Begins the op's next try: hides its implementation in a new worktree and starts the pipeline's run
    there. Returns the run directory."""
    refuse_uncommitted(tree)
    tries = try_dirs(runs, op)
    if tries:
        last = json.loads((tries[-1] / TRY_FILE).read_text())
        state = pipeline.load(tries[-1])
        if last.get("committed"):
            raise ValueError(f"{op} is ported already: {tries[-1]} was committed as {last['committed']}")
        if state.outcome is None:
            raise ValueError(f"{tries[-1]} is still running: carry it with next/record, then end it")
        if len(tries) == TRIES:
            raise ValueError(f"{op} has had its {TRIES} tries ({', '.join(map(str, tries))})")
    run_dir = runs / op / f"try{len(tries) + 1}"
    worktree = runs / op / f"worktree{len(tries) + 1}"
    base = hide(tree, op, worktree)
    pipeline.start(run_dir, op, skill, worktree)
    (run_dir / TRY_FILE).write_text(json.dumps({"base": base, "worktree": str(worktree), "committed": None}) + "\n")
    return run_dir


def end(tree: Path, op: str, runs: Path) -> Attempt:
    """Ends the op's last try: a finished port replaces the op's implementation in `tree` and is
    committed there; any other outcome leaves the try's worktree and run directory as the trail."""
    tries = try_dirs(runs, op)
    if not tries:
        raise ValueError(f"{op} has no try under {runs}; begin one")
    run_dir = tries[-1]
    facts = json.loads((run_dir / TRY_FILE).read_text())
    state = pipeline.load(run_dir)
    if facts["committed"]:
        return Attempt(op, len(tries), state.outcome, state.reason, tries, facts["committed"])
    if state.outcome is None:
        raise ValueError(f"{run_dir} is still running: carry it with next/record first")
    if state.outcome != "DONE":
        return Attempt(op, len(tries), state.outcome, state.reason, tries, None)
    refuse_uncommitted(tree)
    worktree = Path(facts["worktree"])
    patch = captured(worktree, facts["base"])
    git(tree, "rm", "-q", "--", *implementation(tree, op))
    applied = subprocess.run(["git", "-C", str(tree), "apply", "--index", "-"], input=patch, text=True,
                             capture_output=True)
    if applied.returncode:
        git(tree, "reset", "-q", "--hard", "HEAD")  # the tree was clean: this restores it as it was
        return Attempt(op, len(tries), "STOPPED", f"the port does not apply to the tree: {applied.stderr.strip()}",
                       tries, None)
    git(tree, "commit", "-q", "-m", f"Port {op} again through the pipeline ({run_dir})")
    git(tree, "worktree", "remove", "--force", str(worktree))
    facts["committed"] = git(tree, "rev-parse", "HEAD").strip()
    (run_dir / TRY_FILE).write_text(json.dumps(facts) + "\n")
    return Attempt(op, len(tries), state.outcome, state.reason, tries, facts["committed"])


def port(tree: Path, op: str, runs: Path, skill: Path, drive: Callable[[Path], None]) -> Attempt:
    """Ports `op` again, try after try, until one is committed or the tries are spent; `drive(run_dir)`
    carries a begun try's run to its end."""
    while True:
        run_dir = begin(tree, op, runs, skill)
        drive(run_dir)
        attempt = end(tree, op, runs)
        if attempt.committed or attempt.tries == TRIES:
            return attempt
