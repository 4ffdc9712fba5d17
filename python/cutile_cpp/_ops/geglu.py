"""GEGLU, a · gelu(b) over the halves of one dimension, with its backward: cutile_cpp_geglu,
cutile_cpp_geglu_backward."""

from __future__ import annotations

import math

import torch

from .. import _tensor
from . import _common
from .gelu import approximation_code, check_approximate


def _split(x: torch.Tensor, dim: int) -> tuple[int, int]:
    """(M, N): x, contiguous and split in halves along `dim`, is the (M, 2N) matrix [a | b] row by row."""
    return math.prod(x.shape[:dim]), math.prod(x.shape[dim:]) // 2


def _halved_shape(x: torch.Tensor, dim: int) -> list[int]:
    shape = list(x.shape)
    shape[dim] //= 2
    return shape


def _geglu(x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    x = x.contiguous()
    m, n = _split(x, dim)
    y = torch.empty(_halved_shape(x, dim), dtype=x.dtype, device=x.device)
    code = approximation_code(approximate)
    _tensor.call("cutile_cpp_geglu", [y.view(m, n), x.view(m, 2 * n)], ["y", "x"], (code,))
    return y


def _geglu_backward(dy: torch.Tensor, x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    dy, x = dy.contiguous(), x.contiguous()
    m, n = _split(x, dim)
    dx = torch.empty_like(x)
    code = approximation_code(approximate)
    _tensor.call(
        "cutile_cpp_geglu_backward", [dx.view(m, 2 * n), dy.view(m, n), x.view(m, 2 * n)], ["dx", "dy", "x"], (code,)
    )
    return dx


@torch.library.custom_op("cutile_cpp::geglu", mutates_args=())
def _geglu_op(x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    return _geglu(x, dim, approximate)


@_geglu_op.register_fake
def _geglu_fake(x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    return x.new_empty(_halved_shape(x, dim))


@torch.library.custom_op("cutile_cpp::geglu_backward", mutates_args=())
def _geglu_backward_op(dy: torch.Tensor, x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    return _geglu_backward(dy, x, dim, approximate)


@_geglu_backward_op.register_fake
def _geglu_backward_fake(dy: torch.Tensor, x: torch.Tensor, dim: int, approximate: str) -> torch.Tensor:
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    x, dim, approximate = inputs
    ctx.save_for_backward(x)
    ctx.dim, ctx.approximate = dim, approximate


def _backward(ctx, dy):
    (x,) = ctx.saved_tensors
    return torch.ops.cutile_cpp.geglu_backward(dy, x, ctx.dim, ctx.approximate), None, None


_geglu_op.register_autograd(_backward, setup_context=_setup_context)


def geglu(input: torch.Tensor, dim: int = -1, approximate: str = "none") -> torch.Tensor:
    """a · gelu(b) where a and b are the first and second halves of `input` along `dim` (of even size),
    for float32, float16 or bfloat16, computed in float32; `approximate` as in gelu. Returns a new
    contiguous tensor with dimension `dim` halved; differentiable (the backward is a kernel too)."""
    _common.check_tensor("geglu", "input", input)
    check_approximate("geglu", approximate)
    if input.dim() == 0:
        raise ValueError("cutile_cpp.geglu: input must have at least one dimension, got a 0-d tensor")
    if not -input.dim() <= dim < input.dim():
        raise ValueError(f"cutile_cpp.geglu: dim {dim} is out of range for a {input.dim()}-d input")
    dim %= input.dim()
    if input.shape[dim] % 2:
        raise ValueError(
            f"cutile_cpp.geglu: input's dimension {dim} must have an even size, got shape {tuple(input.shape)}"
        )
    if torch.compiler.is_compiling() or (torch.is_grad_enabled() and input.requires_grad):
        return torch.ops.cutile_cpp.geglu(input, dim, approximate)
    return _geglu(input, dim, approximate)
