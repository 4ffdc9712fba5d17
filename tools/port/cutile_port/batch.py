"""The batch driver: ports ops again from their references, each in a fresh git worktree from which the
op's implementation is removed, so that the agents must translate it; a port that the pipeline finishes
(DONE: every stage's verdict passed and the output contract holds) is applied to the tree and committed.
A failed try keeps its worktree and run directory as the trail; an op gets at most two tries.

The op's implementation is what the tree holds of docs/adding-an-op.md's changeset under its name: its
kernel header and source, its interpreter and python tests and its benchmark spec. The reference data
(recipes, exported bytecode, IR-diff reports) stays: it is the port's input.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import pipeline

TRIES = 2


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


def port(tree: Path, op: str, runs: Path, drive: Callable[[Path, Path], pipeline.State]) -> Attempt:
    """Ports `op` again, at most TRIES times. `drive(run_dir, worktree)` runs the pipeline of one try
    and returns its final state; on DONE the port replaces the op's implementation in `tree` and is
    committed there."""
    if git(tree, "status", "--porcelain", "--untracked-files=no").strip():
        raise ValueError(f"{tree} has uncommitted changes: a port is committed onto a clean tree")
    run_dirs = []
    state = None
    for attempt in range(1, TRIES + 1):
        run_dir = runs / op / f"try{attempt}"
        worktree = runs / op / f"worktree{attempt}"
        base = hide(tree, op, worktree)
        run_dirs.append(run_dir)
        state = drive(run_dir, worktree)
        if state.outcome != "DONE":
            continue  # the worktree and the run directory stay as the trail
        patch = captured(worktree, base)
        git(tree, "rm", "-q", "--", *implementation(tree, op))
        applied = subprocess.run(["git", "-C", str(tree), "apply", "--index", "-"], input=patch, text=True,
                                 capture_output=True)
        if applied.returncode:
            git(tree, "reset", "-q", "--hard", "HEAD")  # the tree was clean: this restores it as it was
            return Attempt(op, attempt, "STOPPED", f"the port does not apply to the tree: {applied.stderr.strip()}",
                           run_dirs, None)
        git(tree, "commit", "-q", "-m", f"Port {op} again through the pipeline ({run_dir}, try {attempt})")
        git(tree, "worktree", "remove", "--force", str(worktree))
        return Attempt(op, attempt, state.outcome, state.reason, run_dirs, git(tree, "rev-parse", "HEAD").strip())
    return Attempt(op, TRIES, state.outcome, state.reason, run_dirs, None)
