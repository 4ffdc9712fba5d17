"""fmha: the attention forward on the CPU interpreter against float64 torch (causal or not, grouped-query
heads, a key prefix), the default scale, the library's checks; on the GPU, against PyTorch's
scaled_dot_product_attention at TileGym's test configurations."""

from __future__ import annotations

import math

import pytest
import torch

import cutile_cpp
from support import needs_gpu


def reference(q, k, v, scaling, is_causal):
    h, g = q.shape[1], k.shape[1]
    k, v = k.double().repeat_interleave(h // g, 1), v.double().repeat_interleave(h // g, 1)
    scores = scaling * q.double() @ k.transpose(-1, -2)
    if is_causal:
        s, l = q.shape[2], k.shape[2]
        seen = torch.arange(l)[None, :] <= torch.arange(s)[:, None] + (l - s)
        scores = scores.masked_fill(~seen, float("-inf"))
    return torch.softmax(scores, -1) @ v


@pytest.mark.parametrize(
    "b, h, s, g, l, d, causal, dtype",
    [(1, 2, 37, 2, 37, 64, False, torch.float16), (2, 4, 100, 2, 130, 64, True, torch.float16),
     (1, 2, 20, 1, 20, 128, True, torch.bfloat16)],
)
def test_on_the_cpu_interpreter(b, h, s, g, l, d, causal, dtype):
    q, k, v = (torch.randn(b, n, t, d, dtype=dtype) for n, t in ((h, s), (g, l), (g, l)))
    o = cutile_cpp.fmha(q, k, v, None, causal)
    assert o.shape == q.shape and o.dtype == dtype
    tol = 4e-3 if dtype == torch.float16 else 3e-2
    torch.testing.assert_close(o.double(), reference(q, k, v, 1 / math.sqrt(d), causal), rtol=0, atol=tol)


def test_checks():
    q = torch.randn(1, 3, 8, 64, dtype=torch.float16)
    kv = torch.randn(1, 2, 8, 64, dtype=torch.float16)
    with pytest.raises(ValueError, match=r"cutile_cpp_fmha: requires H % G == 0 \(H = 3 from q's dim 1, G = 2 from k's dim 1\)"):
        cutile_cpp.fmha(q, kv, kv)
    q = torch.randn(1, 2, 8, 32, dtype=torch.float16)
    with pytest.raises(ValueError, match=r"cutile_cpp_fmha: requires D == 64 \|\| D == 128"):
        cutile_cpp.fmha(q, q, q)
    with pytest.raises(TypeError, match=r"cutile_cpp_fmha: q \(f32\[1, 2, 8, 64\] on cpu\): the op supports f16, bf16"):
        cutile_cpp.fmha(*(torch.randn(1, 2, 8, 64) for _ in range(3)))


@needs_gpu
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("b, h, s, d", [(1, 8, 1024, 128), (2, 4, 1000, 64), (4, 32, 4096, 128)])
def test_matches_torch_on_the_gpu(causal, dtype, b, h, s, d):
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dtype) for _ in range(3))
    o = cutile_cpp.fmha(q, k, v, None, causal)
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    torch.testing.assert_close(o, want, rtol=1e-2, atol=1e-2)
