"""layer_norm_legacy: CPU-interpreter round trips against float64 for every dtype and weight_shift, the
forward-only rule, argument and C ABI errors; on a GPU, TileGym's configurations and tolerances with
outputs poisoned before the call."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from cutile_cpp._ops import _norm_common
from support import last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}


def reference(x, weight, bias, eps, weight_shift):
    x64 = x.double()
    mean = x64.mean(-1, keepdim=True)
    var = (x64 - mean).pow(2).mean(-1, keepdim=True)
    return (x64 - mean) * torch.rsqrt(var + eps) * (weight.double() + weight_shift) + bias.double()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (9, 9), (37, 100), (2, 3, 300)])
@pytest.mark.parametrize("weight_shift", [0.0, 1.0])
def test_on_the_cpu_interpreter(dtype, shape, weight_shift):
    x = torch.randn(shape, dtype=dtype) * 2 + 0.5
    w, b = torch.randn(shape[-1], dtype=dtype), torch.randn(shape[-1], dtype=dtype)
    y = cutile_cpp.layer_norm_legacy(x, w, b, 1e-5, weight_shift)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(y.double(), reference(x, w, b, 1e-5, weight_shift), rtol=tol, atol=tol)


def test_forward_only():
    x = torch.randn(4, 8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.layer_norm_legacy is forward-only"):
        y = cutile_cpp.layer_norm_legacy(x, torch.randn(8), torch.randn(8), 1e-5)
    assert not y.requires_grad


def test_under_torch_compile():
    x, w, b = torch.randn(6, 40), torch.randn(40), torch.randn(40)
    compiled = torch.compile(lambda *a: cutile_cpp.layer_norm_legacy(*a, 1e-5) + 1.0, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(x, w, b).double(), reference(x, w, b, 1e-5, 0.0) + 1.0, rtol=1e-5, atol=1e-5)


def test_argument_checks():
    x, w = torch.randn(4, 8), torch.randn(8)
    with pytest.raises(TypeError, match=r"cutile_cpp.layer_norm_legacy: bias has dtype torch.float16, x torch.float32"):
        cutile_cpp.layer_norm_legacy(x, w, w.half(), 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp.layer_norm_legacy: weight must have shape \(8,\)"):
        cutile_cpp.layer_norm_legacy(x, torch.randn(7), w, 1e-5)
    with pytest.raises(TypeError, match=r"cutile_cpp.layer_norm_legacy: bias must be a torch.Tensor, got NoneType"):
        cutile_cpp.layer_norm_legacy(x, w, None, 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp.layer_norm_legacy: rows of 40000 elements exceed the kernel's 64 KiB"):
        cutile_cpp.layer_norm_legacy(torch.randn(1, 40000, dtype=torch.float16), torch.randn(40000).half(),
                                     torch.randn(40000).half(), 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp.layer_norm_legacy: x is on meta"):
        cutile_cpp.layer_norm_legacy(torch.zeros(4, 8, device="meta"), w, w, 1e-5)


def test_abi_errors(abi, status, desc):
    y, x, w, b, mean, rstd = desc([4, 8]), desc([4, 8]), desc([8]), desc([8]), desc([4]), desc([4])

    def call(*tensors):
        return abi.cutile_cpp_layer_norm_legacy(*[ref(t) for t in tensors], 1e-5, 0.0, 0, None)

    assert call(y, mean, desc([4], dtype="F16"), x, w, b) == status.UNSUPPORTED_DTYPE
    assert "cutile_cpp_layer_norm_legacy" in last_error(abi) and "rstd" in last_error(abi)
    assert call(y, mean, rstd, x, w, desc([8], dtype="F16")) == status.DTYPE_MISMATCH
    assert call(y, mean, rstd, x, w, desc([9])) == status.SHAPE_MISMATCH and "bias" in last_error(abi)
    assert call(y, desc([3]), rstd, x, w, b) == status.SHAPE_MISMATCH and "mean" in last_error(abi)
    assert call(desc([4, 8, 1]), mean, rstd, x, w, b) == status.RANK_MISMATCH
    big = desc([2, 20000])
    assert call(desc([2, 20000]), desc([2]), desc([2]), big, desc([20000]), desc([20000])) == status.UNSUPPORTED_SHAPE


@needs_gpu
@pytest.mark.parametrize(
    "m, n, weight_shift, dtype",
    [(256, 256, 0.0, torch.float16), (256, 256, 0.0, torch.float32), (256, 256, 1.0, torch.float16), (9, 9, 0.0, torch.float16)],
)
def test_gpu_matches_torch(m, n, weight_shift, dtype):
    x = torch.rand((m, n), dtype=dtype, device="cuda").mul_(0.5).add_(-2.3)
    w = torch.randn(n, dtype=dtype, device="cuda")
    b = torch.rand(n, dtype=dtype, device="cuda")
    y = torch.full_like(x, float("nan"))
    mean = torch.full((m,), float("nan"), device="cuda")
    rstd = torch.full((m,), float("nan"), device="cuda")
    _norm_common.call("cutile_cpp_layer_norm_legacy", [y, mean, rstd, x, w, b],
                      ["y", "mean", "rstd", "x", "weight", "bias"], 1e-5, weight_shift)
    torch.cuda.synchronize()
    expected = torch.nn.functional.layer_norm(x, (n,), w + weight_shift, b, 1e-5)
    torch.testing.assert_close(y, expected, rtol=0.0, atol=1e-2)
    torch.testing.assert_close(mean, x.float().mean(-1), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd, torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5), rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(cutile_cpp.layer_norm_legacy(x, w, b, 1e-5, weight_shift), expected, rtol=0.0, atol=1e-2)
