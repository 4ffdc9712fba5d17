"""The autotuner from Python (docs/autotuning.md): an op's tuning space, and tuning it on a GPU.

    import cutile_cpp.tuning
    cutile_cpp.tuning.space("softmax")          # {"occupancy": [2, 4, 6, 8]}
    cutile_cpp.tuning.tune("softmax", "M=4096 N={2048,4096} E=bf16 use_tma=1")

A record made here is used once it is compiled in: commit tuning/<op>.jsonl and rebuild.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import _call, _library


def space(op: str) -> dict[str, list[int]]:
    """The op's tunables and their candidates, from its description ({} when it has none)."""
    spec = next((s for s in _call.library().specs if s["name"] == op), None)
    if spec is None:
        raise ValueError(f"no op is named {op!r}")
    return {t["name"]: list(t["candidates"]) for t in spec["tuning"]}


def tune(op: str, config: str, records: str | os.PathLike | None = None, *, jobs: int = 2, runs: int = 50,
         device: int = 0) -> Path:
    """Tunes `op` on GPU `device` at each configuration `config` stands for, appending a record per
    configuration to `records` (default: tuning/<op>.jsonl of the source tree the package is in); a
    configuration the file holds already for this GPU and tileiras release is skipped. Returns the path."""
    if records is None:
        root = _library.source_root()
        if root is None:
            raise ValueError("records: the package is not in a cutile-cpp source tree, so name the file to append to")
        records = root / "tuning" / f"{op}.jsonl"
    path = Path(records)
    status = _library.load().cutile_cpp_tune(op.encode(), config.encode(), os.fsencode(path), jobs, runs, device)
    if status:
        _call.raise_for(status)
    return path
