"""Helpers of the python tier: GPU availability marks, raw-call helpers, each op's PyTorch reference
(bench/ops/specs/<op>.py, which the benchmarks check against too), and what a test of a registration reads."""

from __future__ import annotations

import ctypes
import inspect
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "ops"))
import configs  # noqa: E402 (the benchmarks' op registry, for the references)

GPU_COUNT = torch.cuda.device_count() if torch.cuda.is_available() else 0
needs_gpu = pytest.mark.skipif(GPU_COUNT < 1, reason="needs a CUDA GPU (this machine has none)")
needs_two_gpus = pytest.mark.skipif(GPU_COUNT < 2, reason=f"needs two CUDA GPUs (this machine has {GPU_COUNT})")
cpu_only = pytest.mark.skipif(GPU_COUNT > 0, reason="checks the behaviour on a machine without a GPU")


def last_error(abi) -> str:
    return abi.cutile_cpp_last_error().decode()


def ref(d):
    """A descriptor argument: a pointer to `d`, or NULL for None."""
    return ctypes.byref(d) if d is not None else None


def bench_spec(op: str):
    """bench/ops/specs/<op>.py: its `reference` (and others, e.g. rms_norm's `reference_backward`) and `SPEC`."""
    return configs.spec_module(op)


def parameters(function) -> list:
    """Names, kinds and defaults of a function's parameters: what callers see (annotations aside)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def launched_ops(monkeypatch) -> list:
    """The names of the ops launched from now on (cutile_cpp._functions.Op.launch), in order."""
    import cutile_cpp._functions

    calls = []
    real = cutile_cpp._functions.Op.launch
    monkeypatch.setattr(cutile_cpp._functions.Op, "launch", lambda op, *rest: calls.append(op.name) or real(op, *rest))
    return calls
