"""softmax over the last axis: cutile_cpp_softmax."""

from __future__ import annotations

import torch

from .. import _tensor
from . import _common


def _softmax(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    _tensor.call("cutile_cpp_softmax", [y, x], ["y", "x"])
    return y


@torch.library.custom_op("cutile_cpp::softmax", mutates_args=())
def _softmax_op(x: torch.Tensor) -> torch.Tensor:
    return _softmax(x)


@_softmax_op.register_fake
def _softmax_fake(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax(x) over the last axis of a 2-D (M, N) tensor of float32, float16 or bfloat16 with
    N ≤ 16384, computed in float32. Returns a new tensor laid out like torch.empty_like(x). Forward-only."""
    _common.check_tensor("softmax", "x", x)
    if x.dim() != 2:
        raise ValueError(f"cutile_cpp.softmax: x must be 2-D (M, N), got shape {tuple(x.shape)}")
    (x,) = _common.forward_only("softmax", x)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.softmax(x)
    return _softmax(x)
