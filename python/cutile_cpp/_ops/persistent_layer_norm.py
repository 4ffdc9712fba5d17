"""Layer normalisation, persistent: cutile_cpp_persistent_layer_norm(_given_stats). Forward-only, as
TileGym's."""

from __future__ import annotations

import torch

from . import _common, _norm_common
from .layer_norm_legacy import check_layer_norm_arguments

MAX_COLUMNS = 16384  # the C ABI's limit: larger row tiles take tileiras minutes to compile
NUM_WARPS = 8  # TileGym's untuned num_worker_warps, which it returns


def _stats_like(x: torch.Tensor) -> torch.Tensor:
    return torch.empty(x.shape[0], dtype=torch.float32, device=x.device)


@torch.library.custom_op("cutile_cpp::persistent_layer_norm", mutates_args=())
def _persistent_layer_norm_op(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    y, mean, rstd = torch.empty_like(x), _stats_like(x), _stats_like(x)
    _norm_common.call(
        "cutile_cpp_persistent_layer_norm",
        [y, mean, rstd, x, weight, bias],
        ["y", "mean", "rstd", "x", "weight", "bias"],
        eps,
    )
    return y, mean, rstd


@_persistent_layer_norm_op.register_fake
def _persistent_layer_norm_fake(x, weight, bias, eps):
    return torch.empty_like(x), _stats_like(x), _stats_like(x)


@torch.library.custom_op("cutile_cpp::persistent_layer_norm_given_stats", mutates_args=())
def _given_stats_op(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor
) -> torch.Tensor:
    y = torch.empty_like(x)
    _norm_common.call(
        "cutile_cpp_persistent_layer_norm_given_stats",
        [y, x, weight, bias, mean, rstd],
        ["y", "x", "weight", "bias", "mean", "rstd"],
    )
    return y


@_given_stats_op.register_fake
def _given_stats_fake(x, weight, bias, mean, rstd):
    return torch.empty_like(x)


def _check_stats(name: str, value, rows: int) -> None:
    if value is None:
        return
    if not isinstance(value, torch.Tensor) or value.dtype != torch.float32:
        raise TypeError(f"cutile_cpp.persistent_layer_norm: {name} must be a float32 torch.Tensor")
    if value.shape != (rows,):
        raise ValueError(f"cutile_cpp.persistent_layer_norm: {name} must have shape ({rows},), got {tuple(value.shape)}")


def persistent_layer_norm(
    x: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor,
    eps: float,
    mean: torch.Tensor | None = None,
    rstd: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, int, int]:
    """TileGym's persistent layer norm over the last axis of x (..., D), weight and bias (D,) of one dtype
    (float32, float16, bfloat16), D ≤ 16384: y = (x − mean) · rstd · weight + bias, rounded through
    bfloat16 as TileGym's kernel stores it, with x's dtype and shape. Returns (y, mean, rstd, BLOCK_D,
    num_warps): mean and rstd float32, one per row. Given both mean and rstd, they are used, not computed;
    given one, both are computed and the given one is overwritten (as TileGym's kernel stores into it).
    Forward-only."""
    check_layer_norm_arguments("persistent_layer_norm", x, weight, bias)
    if x.dim() < 1:
        raise ValueError("cutile_cpp.persistent_layer_norm: x must have a last (normalised) axis")
    if x.shape[-1] > MAX_COLUMNS:
        raise ValueError(f"cutile_cpp.persistent_layer_norm: rows of {x.shape[-1]} elements exceed the {MAX_COLUMNS} it supports")
    x2 = x.reshape(-1, x.shape[-1])
    _check_stats("mean", mean, x2.shape[0])
    _check_stats("rstd", rstd, x2.shape[0])
    x2, weight, bias = _common.forward_only("persistent_layer_norm", x2, weight, bias)
    x2 = x2 if x2.stride(-1) == 1 else x2.contiguous()
    if mean is not None and rstd is not None:
        y = torch.ops.cutile_cpp.persistent_layer_norm_given_stats(x2, weight, bias, mean, rstd)
    else:
        y, computed_mean, computed_rstd = torch.ops.cutile_cpp.persistent_layer_norm(x2, weight, bias, float(eps))
        mean = computed_mean if mean is None else mean.copy_(computed_mean)
        rstd = computed_rstd if rstd is None else rstd.copy_(computed_rstd)
    return y.reshape(x.shape), mean, rstd, _norm_common.next_power_of_2(x.shape[-1]), NUM_WARPS
