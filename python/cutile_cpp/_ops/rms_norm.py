"""RMS normalisation: cutile_cpp_rms_norm (three forward schedules) and cutile_cpp_rms_norm_backward,
with autograd through the backward kernel."""

from __future__ import annotations

import torch

from . import _common, _norm_common

_MODES = {None: 0, "static_persistent": 1, "multi_wave_reload": 2, "multi_wave_cached": 3}
MAX_COLUMNS = 32768


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, offset: float, mode: int):
    y = torch.empty_like(x)
    rstd = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
    _norm_common.call("cutile_cpp_rms_norm", [y, rstd, x, weight], ["y", "rstd", "x", "weight"], eps, offset, mode)
    return y, rstd


def _backward_blocks(rows: int, columns: int, device: torch.device) -> int:
    """TileGym's persistent backward grid: min(SMs, row tiles), at most 32 blocks for 64 row tiles or fewer."""
    tile_n = _norm_common.next_power_of_2(columns)
    tile_m = 4 if tile_n <= 2048 or (rows >= 8192 and tile_n <= 4096) else 1
    tiles = -(-rows // tile_m)
    blocks = min(_norm_common.processors(device), tiles)
    if tiles <= 64:
        blocks = min(blocks, 32)
    return max(blocks, 1)


def _rms_norm_backward(x: torch.Tensor, dy: torch.Tensor, weight: torch.Tensor, rstd: torch.Tensor):
    rows, columns = x.shape
    dx = torch.empty_like(x)
    partial = torch.empty(
        (_backward_blocks(rows, columns, x.device), _norm_common.next_power_of_2(columns)),
        dtype=torch.float32,
        device=x.device,
    )
    _norm_common.call(
        "cutile_cpp_rms_norm_backward",
        [dx, partial, dy, x, weight, rstd],
        ["dx", "dw_partial", "dy", "x", "weight", "rstd"],
    )
    return dx, partial.sum(0)[:columns].to(weight.dtype)


@torch.library.custom_op("cutile_cpp::rms_norm", mutates_args=())
def _rms_norm_op(x: torch.Tensor, weight: torch.Tensor, eps: float, offset: float, mode: int) -> tuple[torch.Tensor, torch.Tensor]:
    return _rms_norm(x, weight, eps, offset, mode)


@_rms_norm_op.register_fake
def _rms_norm_fake(x, weight, eps, offset, mode):
    return torch.empty_like(x), x.new_empty(x.shape[0], dtype=torch.float32)


@torch.library.custom_op("cutile_cpp::rms_norm_backward", mutates_args=())
def _rms_norm_backward_op(
    x: torch.Tensor, dy: torch.Tensor, weight: torch.Tensor, rstd: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    return _rms_norm_backward(x, dy, weight, rstd)


@_rms_norm_backward_op.register_fake
def _rms_norm_backward_fake(x, dy, weight, rstd):
    return torch.empty_like(x), torch.empty_like(weight)


def _setup_context(ctx, inputs, output):
    x, weight, _, offset, _ = inputs
    ctx.save_for_backward(x, weight, output[1])
    ctx.offset = offset


def _backward(ctx, dy, _drstd):
    if ctx.offset != 0.0:
        raise NotImplementedError(f"cutile_cpp.rms_norm: no backward with a non-zero offset ({ctx.offset})")
    x, weight, rstd = ctx.saved_tensors
    dx, dw = torch.ops.cutile_cpp.rms_norm_backward(x, dy.contiguous(), weight, rstd)
    return dx, dw, None, None, None


torch.library.register_autograd("cutile_cpp::rms_norm", _backward, setup_context=_setup_context)


def _check(op: str, x: torch.Tensor, weight: torch.Tensor) -> None:
    _common.check_tensor(op, "x", x)
    _common.check_tensor(op, "weight", weight)
    if x.dim() < 1:
        raise ValueError(f"cutile_cpp.{op}: x must have a last (normalised) axis, got shape {tuple(x.shape)}")
    if weight.dim() != 1 or weight.shape[0] != x.shape[-1]:
        raise ValueError(
            f"cutile_cpp.{op}: weight must have shape ({x.shape[-1]},) (x's last axis), got {tuple(weight.shape)}"
        )
    if weight.dtype != x.dtype:
        raise TypeError(f"cutile_cpp.{op}: weight has dtype {weight.dtype}, x {x.dtype}; they must match")
    if weight.device != x.device:
        raise ValueError(f"cutile_cpp.{op}: weight is on {weight.device}, x on {x.device}")
    if x.shape[-1] > MAX_COLUMNS:
        raise ValueError(f"cutile_cpp.{op}: rows of {x.shape[-1]} elements exceed the kernels' {MAX_COLUMNS}")


def rms_norm(
    x: torch.Tensor, weight: torch.Tensor, eps: float, *, mode: str | None = None, offset: float = 0.0
) -> torch.Tensor:
    """x · rsqrt(mean(x², last axis) + eps) · (offset + weight), computed in float32, for x of any rank
    (..., N) and weight (N,) of one dtype (float32, float16, bfloat16), N ≤ 32768. Returns a new contiguous
    tensor of x's shape. `mode` picks TileGym's kernel schedule: None (static_persistent when the rows
    exceed twice the SMs, else multi_wave_reload), "static_persistent", "multi_wave_reload",
    "multi_wave_cached". Differentiable in x and weight (offset 0 only), through cutile_cpp_rms_norm_backward."""
    _check("rms_norm", x, weight)
    if mode not in _MODES:
        raise ValueError(
            f"cutile_cpp.rms_norm: unknown mode {mode!r}; supported: None, 'static_persistent', "
            "'multi_wave_reload', 'multi_wave_cached'"
        )
    x2 = x.contiguous().reshape(-1, x.shape[-1])
    y, _ = torch.ops.cutile_cpp.rms_norm(x2, weight.contiguous(), float(eps), float(offset), _MODES[mode])
    return y.view(x.shape)


def rms_norm_backward(
    x: torch.Tensor, dy: torch.Tensor, weight: torch.Tensor, rstd: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """(dx, dw) of rms_norm with offset 0 given the forward's rstd (float32, one per row): dx has x's shape
    and dtype, dw weight's."""
    _check("rms_norm_backward", x, weight)
    _common.check_tensor("rms_norm_backward", "dy", dy)
    if dy.shape != x.shape or dy.dtype != x.dtype:
        raise ValueError(
            f"cutile_cpp.rms_norm_backward: dy must match x ({tuple(x.shape)}, {x.dtype}), got {tuple(dy.shape)}, {dy.dtype}"
        )
    if not isinstance(rstd, torch.Tensor) or rstd.dtype != torch.float32:
        raise TypeError("cutile_cpp.rms_norm_backward: rstd must be a float32 torch.Tensor")
    x2 = x.contiguous().reshape(-1, x.shape[-1])
    if rstd.numel() != x2.shape[0]:
        raise ValueError(f"cutile_cpp.rms_norm_backward: rstd must have {x2.shape[0]} elements (one per row), got {rstd.numel()}")
    dx, dw = torch.ops.cutile_cpp.rms_norm_backward(
        x2, dy.contiguous().reshape(x2.shape), weight.contiguous(), rstd.contiguous().reshape(-1)
    )
    return dx.view(x.shape), dw
