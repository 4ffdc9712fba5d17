"""What the activation ops' tests share: dtypes, float64 references of the kernels' formulas, and a
CUDA allocator poisoned with NaN so that an output the kernel fails to write shows."""

from __future__ import annotations

import math

import torch

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
# CPU-interpreter round trips against float64: the dtype's rounding of the result (bf16: 8 bits).
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}


def gpu_rtol(dtype: torch.dtype, rtol: float) -> float:
    """The relative tolerance of a GPU comparison with PyTorch: TileGym's `rtol`, at least 1.6e-2 for bf16.
    One bf16 ulp is 2^-8 to 2^-7 of the value, and two correct computations that round differently (ours
    once from f32; torch's bf16 ops also round intermediates, e.g. silu(a) before the product, or take
    another formula, e.g. erf's GELU) differ by an ulp: 0.0156 at 2, 0.0625 at 8, past any absolute
    1e-2. f16 and f32 keep TileGym's tolerances."""
    return max(rtol, 1.6e-2) if dtype == torch.bfloat16 else rtol


def gelu64(x: torch.Tensor, approximate: str) -> torch.Tensor:
    """The kernels' GELU in float64: 'tanh' as torch's; 'none' as TileGym's cutile form, tanh u = 2σ(2u) − 1."""
    x = x.double()
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    t = torch.tanh(u) if approximate == "tanh" else 2 * torch.sigmoid(2 * u) - 1
    return 0.5 * x * (1 + t)


def gelu_grad64(x: torch.Tensor, approximate: str) -> torch.Tensor:
    """d gelu / dx as the kernels take it: 'tanh' the derivative of its forward; 'none' Φ̃(x) + x·φ(x)."""
    x = x.double()
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    if approximate == "tanh":
        t = torch.tanh(u)
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * x * x)
    t = 2 * torch.sigmoid(2 * u) - 1
    return 0.5 * (1 + t) + x * torch.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def poison_cuda_allocator(nbytes: int) -> None:
    """Fills `nbytes` of the CUDA caching allocator's free memory with NaN and frees it again, so the op's
    next allocations (its outputs) start as NaN rather than as zeros or earlier results."""
    block = torch.full((nbytes // 4 + 1,), float("nan"), device="cuda")
    del block
