"""matmul: both kernels on the CPU interpreter against float64 torch for every dtype, both transposes and
ragged sizes; the library's shape checks of transposed operands; TileGym's entry; on the GPU, against
torch.matmul at TileGym's test sizes."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from support import needs_gpu

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
FP8 = [torch.float8_e4m3fn, torch.float8_e5m2]
# f32 runs as tf32; fp8 results are rounded to 2 or 3 mantissa bits
TOLERANCE = {torch.float32: 2e-3, torch.float16: 2e-3, torch.bfloat16: 1.6e-2, torch.float8_e4m3fn: 0.07,
             torch.float8_e5m2: 0.13}


def operands(m, n, k, dtype, trans_a, trans_b, device="cpu"):
    """a and b as stored (transposed ones as (K, M) and (N, K)), and their logical (M, K), (K, N) forms."""
    a = torch.randn((k, m) if trans_a else (m, k), device=device).to(dtype)
    b = torch.randn((n, k) if trans_b else (k, n), device=device).to(dtype)
    return a, b, (a.t() if trans_a else a), (b.t() if trans_b else b)


def assert_near_float64(c, a, b, dtype):
    want = a.double() @ b.double()
    scale = a.double().abs() @ b.double().abs()
    assert ((c.double() - want).abs() <= TOLERANCE[dtype] * (scale + want.abs()) + 1e-6).all()


@pytest.mark.parametrize("dtype", FLOATS + FP8)
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_both_kernels_on_the_cpu_interpreter(dtype, persistent, trans_a, trans_b):
    a, b, logical_a, logical_b = operands(130, 70, 45, dtype, trans_a, trans_b)
    c = cutile_cpp.matmul(a, b, trans_a=trans_a, trans_b=trans_b, static_persistent=persistent)
    assert c.shape == (130, 70) and c.dtype == dtype
    assert_near_float64(c, logical_a, logical_b, dtype)


def test_shape_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp_matmul: b \(f32\[9, 4\] on cpu\): dim 0 must be K = 8"):
        cutile_cpp.matmul(torch.randn(3, 8), torch.randn(9, 4))
    with pytest.raises(ValueError, match=r"b \(f32\[4, 9\] on cpu\) \(given transposed: trans_b\): dim 1 must be K = 8"):
        cutile_cpp.matmul(torch.randn(3, 8), torch.randn(4, 9), trans_b=True)
    with pytest.raises(ValueError, match=r"config is 7; it must satisfy"):
        cutile_cpp.matmul(torch.randn(3, 8), torch.randn(8, 4), config=7)


def test_tilegym_entry_takes_its_defaults():
    tilegym = pytest.importorskip("tilegym")
    import cutile_cpp.tilegym  # noqa: F401  (registers the backend)

    a, b = torch.randn(40, 24), torch.randn(24, 33)
    c = tilegym.ops.matmul(a, b, static_persistent=None, use_tma=True, backend="cutile-cpp")
    assert_near_float64(c, a, b, torch.float32)
    c = tilegym.ops.matmul(a.t().contiguous(), b, trans_a=True, static_persistent=True, backend="cutile-cpp")
    assert_near_float64(c, a, b, torch.float32)


@needs_gpu
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("m, n, k", [(512, 512, 512), (1000, 1001, 513), (4096, 4096, 4096), (8, 8, 8)])
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, True)])
def test_matches_torch_on_the_gpu(dtype, persistent, m, n, k, trans_a, trans_b):
    a, b, logical_a, logical_b = operands(m, n, k, dtype, trans_a, trans_b, "cuda")
    c = cutile_cpp.matmul(a, b, trans_a=trans_a, trans_b=trans_b, static_persistent=persistent)
    tol = 1e-2 if dtype != torch.float32 else 2e-2
    torch.testing.assert_close(c.float(), logical_a.float() @ logical_b.float(), rtol=tol, atol=tol * k**0.5)


@needs_gpu
@pytest.mark.parametrize("dtype", FP8)
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("config", [-1, 0, 1, 2, 3])
def test_fp8_and_every_tile_candidate_on_the_gpu(dtype, persistent, config):
    a, b, _, _ = operands(1000, 1030, 512, dtype, False, False, "cuda")
    c = cutile_cpp.matmul(a, b, static_persistent=persistent, config=config)
    assert_near_float64(c.cpu(), a.cpu(), b.cpu(), dtype)
