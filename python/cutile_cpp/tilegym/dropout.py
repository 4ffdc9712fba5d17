"""TileGym's dropout: its training and in-place switches over cutile_cpp.dropout and cutile_cpp.dropout_inplace."""

from __future__ import annotations

import operator

from tilegym.backend import register_impl

from .. import ops
from . import BACKEND


@register_impl("dropout", backend=BACKEND)
def dropout(x, seed, p=0.5, training=True, inplace=False, **kwargs):
    """TileGym's dropout: the same mask as TileGym's cutile kernel for the same seed and shape. Not training:
    returns x itself; inplace: updates x and returns it; else a new tensor like torch.empty_like(x).
    Forward-only (TileGym's cutile backward raises)."""
    if not training:
        return x
    seed = operator.index(seed) & 0xFFFFFFFF  # the mask depends on the seed modulo 2^32; any Python int is one
    if inplace:
        ops.dropout_inplace(x, seed, p)
        return x
    return ops.dropout(x, seed, p)
