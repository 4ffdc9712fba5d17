"""silu(x[..., :H]) · x[..., H:] with its backward: cutile_cpp_silu_and_mul, cutile_cpp_silu_and_mul_backward."""

from __future__ import annotations

import math

import torch

from .. import _tensor
from . import _common


def _rows(x: torch.Tensor) -> torch.Tensor:
    """x (..., 2H) contiguous, as (M, 2H)."""
    return x.view(math.prod(x.shape[:-1]), x.shape[-1])


def _half_shape(x: torch.Tensor) -> list[int]:
    return [*x.shape[:-1], x.shape[-1] // 2]


def _silu_and_mul_into(x: torch.Tensor, y: torch.Tensor) -> None:
    x2 = _rows(x)
    _tensor.call("cutile_cpp_silu_and_mul", [y.view(x2.shape[0], x2.shape[1] // 2), x2], ["y", "x"])


def _silu_and_mul(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty(_half_shape(x), dtype=x.dtype, device=x.device)
    _silu_and_mul_into(x, y)
    return y


def _silu_and_mul_backward(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    dy, x = dy.contiguous(), x.contiguous()
    dx = torch.empty_like(x)
    x2 = _rows(x)
    dy2 = dy.view(x2.shape[0], x2.shape[1] // 2)
    _tensor.call("cutile_cpp_silu_and_mul_backward", [dx.view(x2.shape), dy2, x2], ["dx", "dy", "x"])
    return dx


@torch.library.custom_op("cutile_cpp::silu_and_mul", mutates_args=())
def _silu_and_mul_op(x: torch.Tensor) -> torch.Tensor:
    return _silu_and_mul(x)


@_silu_and_mul_op.register_fake
def _silu_and_mul_fake(x: torch.Tensor) -> torch.Tensor:
    return x.new_empty(_half_shape(x))


@torch.library.custom_op("cutile_cpp::silu_and_mul_out", mutates_args=("out",))
def _silu_and_mul_out_op(x: torch.Tensor, out: torch.Tensor) -> None:
    _silu_and_mul_into(x.contiguous(), out)


@_silu_and_mul_out_op.register_fake
def _silu_and_mul_out_fake(x: torch.Tensor, out: torch.Tensor) -> None:
    return None


@torch.library.custom_op("cutile_cpp::silu_and_mul_backward", mutates_args=())
def _silu_and_mul_backward_op(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return _silu_and_mul_backward(dy, x)


@_silu_and_mul_backward_op.register_fake
def _silu_and_mul_backward_fake(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def _backward(ctx, dy):
    (x,) = ctx.saved_tensors
    return torch.ops.cutile_cpp.silu_and_mul_backward(dy, x)


_silu_and_mul_op.register_autograd(_backward, setup_context=_setup_context)


def silu_and_mul(input: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
    """silu(input[..., :H]) · input[..., H:] for input (..., 2H) of float32, float16 or bfloat16, computed
    in float32. Returns a new contiguous (..., H) tensor, or writes `out` ((..., H), contiguous, the
    input's dtype and device) and returns it. Differentiable (the backward is a kernel too); `out` is
    refused when input requires grad, as TileGym refuses it."""
    _common.check_tensor("silu_and_mul", "input", input)
    if input.dim() == 0 or input.shape[-1] % 2:
        raise ValueError(
            f"cutile_cpp.silu_and_mul: input's last dimension must have an even size 2H, got shape {tuple(input.shape)}"
        )
    if input.requires_grad and torch.is_grad_enabled():
        if out is not None:
            raise ValueError("cutile_cpp.silu_and_mul: out is not supported when input requires grad")
        return torch.ops.cutile_cpp.silu_and_mul(input)
    if out is None:
        if torch.compiler.is_compiling():
            return torch.ops.cutile_cpp.silu_and_mul(input)
        return _silu_and_mul(input)
    _common.check_tensor("silu_and_mul", "out", out)
    expected = tuple(_half_shape(input))
    if tuple(out.shape) != expected:
        raise ValueError(f"cutile_cpp.silu_and_mul: out has shape {tuple(out.shape)}; expected {expected}")
    if out.dtype != input.dtype:
        raise TypeError(f"cutile_cpp.silu_and_mul: out has dtype {out.dtype}; input has {input.dtype}")
    if out.device != input.device:
        raise ValueError(f"cutile_cpp.silu_and_mul: out is on {out.device}; input is on {input.device}")
    if not out.is_contiguous():
        raise ValueError("cutile_cpp.silu_and_mul: out must be contiguous")
    if torch.compiler.is_compiling():
        torch.ops.cutile_cpp.silu_and_mul_out(input, out)
    else:
        _silu_and_mul_into(input.contiguous(), out)
    return out
