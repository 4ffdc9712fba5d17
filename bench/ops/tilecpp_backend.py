"""The harness's side of backend "tilecpp": TileGym's CUDA Tile C++ kernels (NVIDIA's C++ tile front end,
`nvcc -enable-tile`), called through `tilegym.ops.<op>(..., backend="tilecpp")` as "cutile" is.

TileGym compiles those kernels with nvcc at their first call. The GPU machine has no nvcc, so the harness
runs them from a pack built ahead of time (scripts/tilecpp_pack.sh): with TILECPP_PACK_DIR set and no
TILECPP_NVCC_PATH of the caller's own, TileGym's nvcc is bench/ops/tilecpp_nvcc.py, which serves the pack's
cubins and records every compile the pack lacks in a miss log. TileGym reads these variables when it is
imported, so `prepare()` runs before `import tilegym`.

A miss cannot pass silently: TileGym's autotuner drops a candidate whose compile fails without a word, so
after each checked call the harness reads the miss log and records the call as an error naming the
missing instantiation. A backend TileGym finds unusable (no pack, no nvcc >= 13.3) is reported as
unavailable with the reason: its dispatcher would otherwise fall back to PyTorch without saying so.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

NAME = "tilecpp"
STAND_IN = Path(__file__).resolve().parent / "tilecpp_nvcc.py"


def prepare(environ=os.environ) -> None:
    """Points TileGym at the pack's stand-in when a pack is given and TileGym has no nvcc of its own, and
    gives the stand-in a miss log; call it before importing tilegym."""
    if environ.get("TILECPP_PACK_DIR") and not environ.get("TILECPP_NVCC_PATH"):
        environ["TILECPP_NVCC_PATH"] = str(STAND_IN)
        if not os.access(STAND_IN, os.X_OK):  # a copy of the tree that lost the mode bits
            os.chmod(STAND_IN, STAND_IN.stat().st_mode | 0o111)
    if environ.get("TILECPP_NVCC_PATH") == str(STAND_IN) and not environ.get("TILECPP_PACK_MISSES"):
        fd, path = tempfile.mkstemp(prefix="tilecpp-misses-", suffix=".jsonl")
        os.close(fd)
        environ["TILECPP_PACK_MISSES"] = path


def unavailable_reason(environ=os.environ, available=None, import_error=None) -> str | None:
    """Why TileGym cannot run its tilecpp kernels here, or None. `available`: TileGym's own verdict
    (tilegym.backend.selector.is_tilecpp_available); `import_error`: why TileGym could not import its
    tilecpp launcher (cuda.core and cuda.bindings), if it could not; the reason says what is missing."""
    nvcc = environ.get("TILECPP_NVCC_PATH")
    pack = environ.get("TILECPP_PACK_DIR")
    if not nvcc:
        return ("no tilecpp pack (TILECPP_PACK_DIR; scripts/tilecpp_pack.sh builds one) and no nvcc >= 13.3 "
                "(TILECPP_NVCC_PATH)")
    if nvcc == str(STAND_IN):
        version = Path(pack or "") / "nvcc-version.txt"
        if not pack or not version.is_file():
            return f"TILECPP_PACK_DIR={pack} is not a tilecpp pack (no nvcc-version.txt)"
    if import_error is not None:
        return f"TileGym's tilecpp launcher does not import ({import_error}; the pack's wheels/ has cuda-core)"
    if available is not None and available():
        return None
    try:
        result = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=30)
        said = (result.stdout.strip().splitlines() or result.stderr.strip().splitlines() or ["no output"])[-2:]
    except OSError as error:
        said = [str(error)]
    return f"TileGym finds no nvcc >= 13.3 at TILECPP_NVCC_PATH={nvcc} (--version: {' / '.join(said)})"


class MissLog:
    """The stand-in's miss log: compiles the pack lacked, as JSON lines."""

    def __init__(self, environ=os.environ):
        path = environ.get("TILECPP_PACK_MISSES")
        self.path = Path(path) if path else None

    def entries(self) -> list[dict]:
        if self.path is None or not self.path.is_file():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def mark(self) -> int:
        return len(self.entries())

    def since(self, mark: int) -> str | None:
        """A one-line error for the misses after `mark`, or None."""
        new = self.entries()[mark:]
        if not new:
            return None
        more = f" (and {len(new) - 1} more)" if len(new) > 1 else ""
        return f"the tilecpp pack has no cubin for {new[0]['arch']} `{new[0]['instantiation']}`{more}"


def describe(environ=os.environ) -> dict:
    """What the report records: the nvcc TileGym is given, and the pack's nvcc and size when it is one."""
    out = {"nvcc_path": environ.get("TILECPP_NVCC_PATH"), "pack": environ.get("TILECPP_PACK_DIR")}
    version = Path(out["pack"] or "") / "nvcc-version.txt"
    if out["pack"] and version.is_file():
        lines = version.read_text().strip().splitlines()
        out["pack_nvcc"] = lines[-2] if len(lines) >= 2 else "".join(lines)
        entries = Path(out["pack"]) / "entries"
        out["pack_entries"] = len(list(entries.glob("*.json"))) if entries.is_dir() else 0
    return out
