"""TileGym's persistent_layer_norm: cutile_cpp.persistent_layer_norm, or its given-statistics form when both
statistics are given, with TileGym's return tuple."""

from __future__ import annotations

from tilegym.backend import register_impl

from .. import ops
from . import BACKEND

NUM_WARPS = 8  # TileGym's untuned num_worker_warps, which it returns whatever it launched with


@register_impl("persistent_layer_norm", backend=BACKEND)
def persistent_layer_norm(input, normalized_shape, weight, bias, eps, mean=None, rstd=None, **kwargs):
    """(y, mean, rstd, BLOCK_D, num_warps) as TileGym's: y rounded through bfloat16 as TileGym's kernel stores
    it, in input's shape; mean and rstd float32, one per row. Given both mean and rstd, they are read, not
    computed; given one, both are computed and the given one is written (as TileGym's kernel stores into it).
    `normalized_shape` is unused. Forward-only."""
    if mean is not None and rstd is not None:
        y = ops.persistent_layer_norm_given_stats(input, weight, bias, mean, rstd)
    else:
        y, mean, rstd = ops.persistent_layer_norm(input, weight, bias, eps, mean=mean, rstd=rstd)
    return y, mean, rstd, 1 << max(input.shape[-1] - 1, 0).bit_length(), NUM_WARPS
