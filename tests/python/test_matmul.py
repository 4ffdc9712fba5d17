"""matmul: both kernels on the CPU interpreter against float64 torch for every dtype and ragged sizes; the
library's shape checks; on the GPU, against torch.matmul at TileGym's test sizes."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from support import needs_gpu

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 2e-3, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}  # f32 runs as tf32


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("persistent", [False, True])
def test_both_kernels_on_the_cpu_interpreter(dtype, persistent):
    a, b = torch.randn(130, 45, dtype=dtype), torch.randn(45, 70, dtype=dtype)
    c = cutile_cpp.matmul(a, b, persistent)
    assert c.shape == (130, 70) and c.dtype == dtype
    want = a.double() @ b.double()
    scale = a.double().abs() @ b.double().abs()
    assert ((c.double() - want).abs() <= TOLERANCE[dtype] * (scale + want.abs()) + 1e-6).all()


def test_shape_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp_matmul: b \(f32\[9, 4\] on cpu\): dim 0 must be K = 8"):
        cutile_cpp.matmul(torch.randn(3, 8), torch.randn(9, 4))


@needs_gpu
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
@pytest.mark.parametrize("persistent", [False, True])
@pytest.mark.parametrize("m, n, k", [(512, 512, 512), (1000, 1001, 513), (4096, 4096, 4096)])
def test_matches_torch_on_the_gpu(dtype, persistent, m, n, k):
    a, b = torch.randn(m, k, device="cuda", dtype=dtype), torch.randn(k, n, device="cuda", dtype=dtype)
    c = cutile_cpp.matmul(a, b, persistent)
    tol = 1e-2 if dtype != torch.float32 else 2e-2
    torch.testing.assert_close(c.float(), (a.float() @ b.float()), rtol=tol, atol=tol * k**0.5)
