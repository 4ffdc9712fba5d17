"""Layer normalisation, one row per block: cutile_cpp_layer_norm_legacy. Forward-only, as TileGym's."""

from __future__ import annotations

import torch

from . import _common, _norm_common


def check_layer_norm_arguments(op: str, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> None:
    _common.check_tensor(op, "x", x)
    for name, value in (("weight", weight), ("bias", bias)):
        _common.check_tensor(op, name, value)
        if value.dim() != 1 or (x.dim() >= 1 and value.shape[0] != x.shape[-1]):
            raise ValueError(f"cutile_cpp.{op}: {name} must have shape ({x.shape[-1]},) (x's last axis), got {tuple(value.shape)}")
        if value.dtype != x.dtype:
            raise TypeError(f"cutile_cpp.{op}: {name} has dtype {value.dtype}, x {x.dtype}; they must match")
        if value.device != x.device:
            raise ValueError(f"cutile_cpp.{op}: {name} is on {value.device}, x on {x.device}")


def _layer_norm_legacy(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float, weight_shift: float):
    y = torch.empty_like(x)
    mean = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    rstd = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    _norm_common.call(
        "cutile_cpp_layer_norm_legacy",
        [y, mean, rstd, x, weight, bias],
        ["y", "mean", "rstd", "x", "weight", "bias"],
        eps,
        weight_shift,
    )
    return y, mean, rstd


@torch.library.custom_op("cutile_cpp::layer_norm_legacy", mutates_args=())
def _layer_norm_legacy_op(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float, weight_shift: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _layer_norm_legacy(x, weight, bias, eps, weight_shift)


@_layer_norm_legacy_op.register_fake
def _layer_norm_legacy_fake(x, weight, bias, eps, weight_shift):
    rows = x.shape[0]
    return torch.empty_like(x), x.new_empty(rows, dtype=torch.float32), x.new_empty(rows, dtype=torch.float32)


def layer_norm_legacy(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float, weight_shift: float = 0.0
) -> torch.Tensor:
    """(x − mean) · rsqrt(var + eps) · (weight + weight_shift) + bias over the last axis, computed in float32,
    for x of any rank (..., N) and weight, bias (N,) of one dtype (float32, float16, bfloat16) with
    N · element size ≤ 64 KiB. Returns a new tensor of x's shape, contiguous. Forward-only."""
    check_layer_norm_arguments("layer_norm_legacy", x, weight, bias)
    if x.dim() < 1:
        raise ValueError("cutile_cpp.layer_norm_legacy: x must have a last (normalised) axis")
    limit = 65536 // x.element_size()
    if x.shape[-1] > limit:
        raise ValueError(f"cutile_cpp.layer_norm_legacy: rows of {x.shape[-1]} elements exceed the kernel's 64 KiB ({limit})")
    x, weight, bias = _common.forward_only("layer_norm_legacy", x, weight, bias)
    x2 = x.contiguous().reshape(-1, x.shape[-1])
    y, _, _ = torch.ops.cutile_cpp.layer_norm_legacy(x2, weight, bias, float(eps), float(weight_shift))
    return y.view(x.shape)
