"""ReLU elementwise: cutile_cpp_relu."""

from __future__ import annotations

import torch

from .. import _tensor
from . import _common


def _relu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    _tensor.call("cutile_cpp_relu", [y.view(-1), x.view(-1)], ["y", "x"])
    return y


@torch.library.custom_op("cutile_cpp::relu", mutates_args=())
def _relu_op(x: torch.Tensor) -> torch.Tensor:
    return _relu(x)


@_relu_op.register_fake
def _relu_fake(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def relu(x: torch.Tensor) -> torch.Tensor:
    """max(x, 0) elementwise for a tensor of any shape of float32, float16 or bfloat16. Returns a new
    contiguous tensor (a non-contiguous x is read through a contiguous copy). Forward-only, as TileGym's
    cutile relu is."""
    _common.check_tensor("relu", "x", x)
    (x,) = _common.forward_only("relu", x)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.relu(x)
    return _relu(x)
