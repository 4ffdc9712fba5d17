"""TileGym backend "cutile-cpp".

Importing this module registers every op the kernel library ports with TileGym's dispatcher
(tilegym.backend.register_impl) and adds the backend to TileGym's available set, so that
`tilegym.set_backend("cutile-cpp")` and `tilegym.ops.<op>(..., backend="cutile-cpp")` run our kernels.
Each implementation has the signature, defaults, output layout and in-place behaviour of TileGym's cutile
implementation of the op (src/tilegym/ops/cutile/<op>.py).
"""

from __future__ import annotations

import torch
from tilegym.backend import get_available_backends, register_impl

from . import ops

BACKEND = "cutile-cpp"
# The ops registered here, by TileGym name.
PORTED_OPS = ("softmax", "dropout")


@register_impl("softmax", backend=BACKEND)
def softmax(x: torch.Tensor, use_tma: bool = False, **kwargs) -> torch.Tensor:
    """TileGym's softmax: a new (M, N) tensor laid out like torch.empty_like(x). `use_tma` and the
    `use_chunked` / `use_multi_wave` keywords pick the kernel as TileGym's do; other keywords are
    ignored, as there. Forward-only (TileGym's cutile softmax has no backward either)."""
    return ops.softmax(
        x,
        use_tma,
        use_chunked=kwargs.get("use_chunked", False),
        use_multi_wave=kwargs.get("use_multi_wave", False),
    )


@register_impl("dropout", backend=BACKEND)
def dropout(x: torch.Tensor, seed, p=0.5, training=True, inplace=False, **kwargs) -> torch.Tensor:
    """TileGym's dropout: the same mask as TileGym's cutile kernel for the same seed and shape. Not
    training or inplace: returns x itself; else a new tensor like torch.empty_like(x). Forward-only
    (TileGym's cutile backward raises)."""
    return ops.dropout(x, seed, p, training, inplace)


get_available_backends().add(BACKEND)
