"""softmax over the last axis: cutile_cpp_softmax_variant, one of TileGym's four softmax kernels."""

from __future__ import annotations

import torch

from .. import _tensor
from . import _common

# cutile_cpp_softmax_kernel
_GATHER, _MULTI_WAVE, _TMA, _CHUNKED = 0, 1, 2, 3


def _softmax(x: torch.Tensor, variant: int) -> torch.Tensor:
    y = torch.empty_like(x)
    _tensor.call("cutile_cpp_softmax_variant", [y, x], ["y", "x"], (variant,))
    return y


@torch.library.custom_op("cutile_cpp::softmax", mutates_args=())
def _softmax_op(x: torch.Tensor, variant: int = _GATHER) -> torch.Tensor:
    # Not named `kernel`: Inductor's fallback for custom ops takes a keyword of that name itself.
    return _softmax(x, variant)


@_softmax_op.register_fake
def _softmax_fake(x: torch.Tensor, variant: int = _GATHER) -> torch.Tensor:
    return torch.empty_like(x)


def _kernel(use_tma: bool, use_chunked: bool, use_multi_wave: bool) -> int:
    # TileGym's precedence: multi-wave, then chunked, then TMA, else the persistent gather kernel.
    if use_tma and use_chunked:
        raise ValueError("cutile_cpp.softmax: use_tma and use_chunked cannot both be set")
    if use_multi_wave:
        return _MULTI_WAVE
    if use_chunked:
        return _CHUNKED
    return _TMA if use_tma else _GATHER


def softmax(
    x: torch.Tensor, use_tma: bool = False, *, use_chunked: bool = False, use_multi_wave: bool = False
) -> torch.Tensor:
    """softmax(x) over the last axis of a 2-D (M, N) tensor of float32, float16 or bfloat16, computed in
    float32 with the approximate exp and division. The flags pick TileGym's kernel: the persistent gather
    kernel by default, `use_tma` (tile loads and stores), `use_chunked` (rows in chunks of at most 8192
    columns) or `use_multi_wave` (one row per tile block); rows of more than 16384 columns always take
    the chunked kernel. Returns a new tensor laid out like torch.empty_like(x). Forward-only."""
    _common.check_tensor("softmax", "x", x)
    if x.dim() != 2:
        raise ValueError(f"cutile_cpp.softmax: x must be 2-D (M, N), got shape {tuple(x.shape)}")
    kernel = _kernel(bool(use_tma), bool(use_chunked), bool(use_multi_wave))
    (x,) = _common.forward_only("softmax", x)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.softmax(x, kernel)
    return _softmax(x, kernel)
