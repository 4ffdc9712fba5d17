"""What every op shares: argument checks that name the op and the argument, and the forward-only rule."""

from __future__ import annotations

import warnings

import torch

FLOAT_DTYPES = frozenset((torch.float32, torch.float16, torch.bfloat16))


def check_tensor(op: str, name: str, value) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"cutile_cpp.{op}: {name} must be a torch.Tensor, got {type(value).__name__}")
    if value.dtype not in FLOAT_DTYPES:
        raise TypeError(f"cutile_cpp.{op}: {name} has dtype {value.dtype}; supported: float32, float16, bfloat16")
    if not (value.is_cuda or value.is_cpu):
        raise ValueError(f"cutile_cpp.{op}: {name} is on {value.device}; the ops take CUDA or CPU tensors")


def forward_only(op: str, *tensors: torch.Tensor) -> list[torch.Tensor] | tuple[torch.Tensor, ...]:
    for t in tensors:
        if t.requires_grad:
            break
    else:
        return tensors  # nothing to detach
    if torch.is_grad_enabled():
        warnings.warn(
            f"cutile_cpp.{op} is forward-only: its inputs are detached and its result has no gradient", stacklevel=3
        )
    return [t.detach() for t in tensors]
