"""The environment a benchmark report records: versions of the backends and tools, the git commit, the
GPU and its driver."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import torch

import tilecpp_backend

from errors import first_line

REPO = Path(__file__).resolve().parents[2]


def version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def tileiras_version() -> dict:
    """The tileiras cuTile Python finds (the same one gpu_bench.sh gives our library)."""
    try:
        from cuda.tile import _compile

        path = _compile._find_compiler_bin().path
        text = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
        release = next((line.strip() for line in text.splitlines() if "release" in line), text.strip())
        return {"path": path, "version": release}
    except Exception as error:
        return {"error": first_line(error)}


def git_commit() -> str:
    if os.environ.get("BENCH_GIT_COMMIT"):
        return os.environ["BENCH_GIT_COMMIT"]
    try:
        result = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10)
        if result.returncode == 0:
            dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                                   capture_output=True, text=True, timeout=10).stdout.strip()
            return result.stdout.strip() + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def describe(device: torch.device) -> dict:
    meta = {
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git_commit": git_commit(),
        "device": device.type,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "triton": version("triton"),
        "cuda_tile": version("cuda-tile"),
        "tilegym": version("tilegym"),
        "tileiras": tileiras_version(),
        "tilecpp": tilecpp_backend.describe(),
        "host": platform.node(),
    }
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        meta.update(gpu=props.name, sm_count=props.multi_processor_count,
                    compute_capability=f"{props.major}.{props.minor}",
                    gpu_memory_gib=round(props.total_memory / 2**30, 1), l2_bytes=getattr(props, "L2_cache_size", None))
        try:
            meta["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                            capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, subprocess.SubprocessError, IndexError):
            meta["driver"] = None
    else:
        meta.update(gpu=None, sm_count=None, driver=None)
    return meta
