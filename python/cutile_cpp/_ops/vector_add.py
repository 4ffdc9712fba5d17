"""Elementwise a + b: cutile_cpp_vector_add."""

from __future__ import annotations

import torch

from .. import _tensor
from . import _common


def _vector_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty_like(a)
    _tensor.call("cutile_cpp_vector_add", [c, a, b], ["c", "a", "b"])
    return c


@torch.library.custom_op("cutile_cpp::vector_add", mutates_args=())
def _vector_add_op(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _vector_add(a, b)


@_vector_add_op.register_fake
def _vector_add_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(a)


def vector_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a + b for 1-D tensors of one shape, dtype (float32, float16 or bfloat16) and device. Returns a new
    tensor laid out like torch.empty_like(a). Forward-only."""
    _common.check_tensor("vector_add", "a", a)
    _common.check_tensor("vector_add", "b", b)
    if a.dim() != 1 or b.dim() != 1:
        raise ValueError(f"cutile_cpp.vector_add: a and b must be 1-D, got shapes {tuple(a.shape)} and {tuple(b.shape)}")
    if a.shape != b.shape:
        raise ValueError(f"cutile_cpp.vector_add: a and b differ in length: {a.shape[0]} and {b.shape[0]}")
    if a.dtype != b.dtype:
        raise TypeError(f"cutile_cpp.vector_add: a and b differ in dtype: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"cutile_cpp.vector_add: a and b are on different devices: {a.device} and {b.device}")
    a, b = _common.forward_only("vector_add", a, b)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.vector_add(a, b)
    return _vector_add(a, b)
