"""GELU elementwise with its backward: cutile_cpp_gelu, cutile_cpp_gelu_backward."""

from __future__ import annotations

import torch

from .. import _library, _tensor
from . import _common

APPROXIMATIONS = ("none", "tanh")


def check_approximate(op: str, approximate) -> None:
    """ValueError unless `approximate` is one of TileGym's two forms."""
    if approximate not in APPROXIMATIONS:
        raise ValueError(f"cutile_cpp.{op}: approximate must be 'none' or 'tanh', got {approximate!r}")


def approximation_code(approximate: str) -> int:
    """CUTILE_CPP_GELU_NONE / _TANH for a checked `approximate`."""
    return _library.load().constants["CUTILE_CPP_GELU_" + approximate.upper()]


def _gelu(x: torch.Tensor, approximate: str) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    code = approximation_code(approximate)
    _tensor.call("cutile_cpp_gelu", [y.view(-1), x.view(-1)], ["y", "x"], (code,))
    return y


def _gelu_backward(dy: torch.Tensor, x: torch.Tensor, approximate: str) -> torch.Tensor:
    dy, x = dy.contiguous(), x.contiguous()
    dx = torch.empty_like(x)
    code = approximation_code(approximate)
    _tensor.call("cutile_cpp_gelu_backward", [dx.view(-1), dy.view(-1), x.view(-1)], ["dx", "dy", "x"], (code,))
    return dx


@torch.library.custom_op("cutile_cpp::gelu", mutates_args=())
def _gelu_op(x: torch.Tensor, approximate: str) -> torch.Tensor:
    return _gelu(x, approximate)


@_gelu_op.register_fake
def _gelu_fake(x: torch.Tensor, approximate: str) -> torch.Tensor:
    return torch.empty_like(x, memory_format=torch.contiguous_format)


@torch.library.custom_op("cutile_cpp::gelu_backward", mutates_args=())
def _gelu_backward_op(dy: torch.Tensor, x: torch.Tensor, approximate: str) -> torch.Tensor:
    return _gelu_backward(dy, x, approximate)


@_gelu_backward_op.register_fake
def _gelu_backward_fake(dy: torch.Tensor, x: torch.Tensor, approximate: str) -> torch.Tensor:
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    x, approximate = inputs
    ctx.save_for_backward(x)
    ctx.approximate = approximate


def _backward(ctx, dy):
    (x,) = ctx.saved_tensors
    return torch.ops.cutile_cpp.gelu_backward(dy, x, ctx.approximate), None


_gelu_op.register_autograd(_backward, setup_context=_setup_context)


def gelu(input: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    """GELU elementwise for a tensor of any shape of float32, float16 or bfloat16, computed in its dtype.
    approximate='tanh': 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³))); 'none': TileGym's cutile form of it,
    tanh taken as 2σ(2u) − 1 (within ≈ 5e-4 of erf's GELU). Returns a new contiguous tensor; differentiable
    (the backward is a kernel too)."""
    _common.check_tensor("gelu", "input", input)
    check_approximate("gelu", approximate)
    if torch.compiler.is_compiling() or (torch.is_grad_enabled() and input.requires_grad):
        return torch.ops.cutile_cpp.gelu(input, approximate)
    return _gelu(input, approximate)
