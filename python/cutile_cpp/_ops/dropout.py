"""Dropout with TileGym's hash mask: cutile_cpp_dropout, cutile_cpp_dropout_inplace."""

from __future__ import annotations

import operator

import torch

from .. import _tensor
from . import _common


def _dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    y = torch.empty_like(x)
    _tensor.call("cutile_cpp_dropout", [y.view(-1), x.view(-1)], ["y", "x"], (p, seed))
    return y


def _dropout_inplace(x: torch.Tensor, seed: int, p: float) -> None:
    _tensor.call("cutile_cpp_dropout_inplace", [x.view(-1)], ["x"], (p, seed))


@torch.library.custom_op("cutile_cpp::dropout", mutates_args=())
def _dropout_op(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    return _dropout(x, seed, p)


@_dropout_op.register_fake
def _dropout_fake(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    return torch.empty_like(x)


@torch.library.custom_op("cutile_cpp::dropout_", mutates_args=("x",))
def _dropout_inplace_op(x: torch.Tensor, seed: int, p: float) -> None:
    _dropout_inplace(x, seed, p)


@_dropout_inplace_op.register_fake
def _dropout_inplace_fake(x: torch.Tensor, seed: int, p: float) -> None:
    return None


def dropout(x: torch.Tensor, seed: int, p: float = 0.5, training: bool = True, inplace: bool = False) -> torch.Tensor:
    """TileGym's dropout: in training mode, each element of a contiguous float32, float16 or bfloat16 tensor
    is zeroed or scaled by 1 / (1 - p) by TileGym's counter-based hash of its flat index and `seed`, so
    that a seed gives TileGym's mask bit for bit. Not training: returns x itself. inplace: updates x and
    returns it; else a new tensor laid out like torch.empty_like(x). Forward-only (TileGym's backward
    raises)."""
    _common.check_tensor("dropout", "x", x)
    if not training:
        return x
    try:
        seed = operator.index(seed)
    except TypeError:
        raise TypeError(f"cutile_cpp.dropout: seed must be an int, got {type(seed).__name__}") from None
    p = float(p)
    if p != p:
        raise ValueError("cutile_cpp.dropout: p is nan")
    if not x.is_contiguous():
        raise ValueError(f"cutile_cpp.dropout: x must be contiguous (strides {x.stride()} for shape {tuple(x.shape)})")
    seed &= 0xFFFFFFFF  # the mask depends on the seed modulo 2^32
    original = x
    (x,) = _common.forward_only("dropout", x)
    compiling = torch.compiler.is_compiling()
    if inplace:
        if compiling:
            torch.ops.cutile_cpp.dropout_(x, seed, p)
        else:
            _dropout_inplace(x, seed, p)
        return original
    return torch.ops.cutile_cpp.dropout(x, seed, p) if compiling else _dropout(x, seed, p)
