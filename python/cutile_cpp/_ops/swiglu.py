"""SwiGLU, silu(a) · b for two tensors of one shape, with its backward: cutile_cpp_swiglu,
cutile_cpp_swiglu_backward."""

from __future__ import annotations

import math

import torch

from .. import _tensor
from . import _common


def _rows(t: torch.Tensor) -> torch.Tensor:
    """t (..., n) as (M, n): a view where the layout allows, else a contiguous copy."""
    return t.reshape(math.prod(t.shape[:-1]), t.shape[-1]) if t.dim() else t.reshape(1, 1)


def _swiglu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    a2, b2 = _rows(a), _rows(b)
    c = torch.empty(a.shape, dtype=a.dtype, device=a.device)
    _tensor.call("cutile_cpp_swiglu", [c.view(a2.shape), a2, b2], ["c", "a", "b"])
    return c


def _swiglu_backward(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    dc2, a2, b2 = _rows(dc), _rows(a), _rows(b)
    da = torch.empty(a.shape, dtype=a.dtype, device=a.device)
    db = torch.empty(b.shape, dtype=b.dtype, device=b.device)
    _tensor.call(
        "cutile_cpp_swiglu_backward",
        [da.view(a2.shape), db.view(a2.shape), dc2, a2, b2],
        ["da", "db", "dc", "a", "b"],
    )
    return da, db


@torch.library.custom_op("cutile_cpp::swiglu", mutates_args=())
def _swiglu_op(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _swiglu(a, b)


@_swiglu_op.register_fake
def _swiglu_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a.new_empty(a.shape)


@torch.library.custom_op("cutile_cpp::swiglu_backward", mutates_args=())
def _swiglu_backward_op(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return _swiglu_backward(dc, a, b)


@_swiglu_backward_op.register_fake
def _swiglu_backward_fake(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return a.new_empty(a.shape), b.new_empty(b.shape)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _backward(ctx, dc):
    a, b = ctx.saved_tensors
    return torch.ops.cutile_cpp.swiglu_backward(dc, a, b)


_swiglu_op.register_autograd(_backward, setup_context=_setup_context)


def swiglu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """silu(a) · b for a and b of one shape, dtype (float32, float16 or bfloat16) and device; silu in
    float32, the product in the dtype. Returns a new contiguous tensor of that shape; differentiable in
    both arguments (the backward is a kernel too)."""
    _common.check_tensor("swiglu", "a", a)
    _common.check_tensor("swiglu", "b", b)
    if a.shape != b.shape:
        raise ValueError(f"cutile_cpp.swiglu: a and b differ in shape: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"cutile_cpp.swiglu: a and b differ in dtype: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"cutile_cpp.swiglu: a and b are on different devices: {a.device} and {b.device}")
    if torch.compiler.is_compiling() or (torch.is_grad_enabled() and (a.requires_grad or b.requires_grad)):
        return torch.ops.cutile_cpp.swiglu(a, b)
    return _swiglu(a, b)
