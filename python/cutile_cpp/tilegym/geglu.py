"""TileGym's geglu, which splits `input` along any `dim`: cutile_cpp.geglu on the rows (prod(shape[:dim]),
prod(shape[dim:])), whose halves are those of `dim` (the op itself splits the last dimension)."""

from __future__ import annotations

import math

from tilegym.backend import register_impl

from .. import ops
from . import BACKEND


@register_impl("geglu", backend=BACKEND)
def geglu(input, dim=-1, approximate="none"):
    """TileGym's geglu: a · gelu(b) for the halves a, b of `input` along `dim` (of even size), a new contiguous
    tensor with that dimension halved; `approximate` as in cutile_cpp.gelu. Differentiable."""
    if input.dim() == 0:
        raise ValueError("cutile-cpp geglu: input must have at least one dimension, got a 0-d tensor")
    if not -input.dim() <= dim < input.dim():
        raise ValueError(f"cutile-cpp geglu: dim {dim} is out of range for a {input.dim()}-d input")
    dim %= input.dim()
    if input.shape[dim] % 2:
        raise ValueError(
            f"cutile-cpp geglu: input's dimension {dim} must have an even size, got shape {tuple(input.shape)}"
        )
    shape = list(input.shape)
    shape[dim] //= 2
    rows = input.reshape(math.prod(input.shape[:dim]), math.prod(input.shape[dim:]))
    return ops.geglu(rows, approximate).view(shape)
