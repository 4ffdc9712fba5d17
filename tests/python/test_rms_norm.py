"""rms_norm and its backward: CPU-interpreter round trips against the float64 reference for every dtype,
mode and offset, autograd (eager and compiled, with the offset), argument and C ABI errors; on a GPU,
TileGym's test configurations and tolerances with outputs poisoned before the call."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from support import bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
MODES = [None, "static_persistent", "multi_wave_reload", "multi_wave_cached"]
spec = bench_spec("rms_norm")


def reference(x, weight, eps, offset=0.0):
    """The benchmarks' reference, in float64 here."""
    return spec.reference(x.double(), weight.double(), eps, offset)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 5), (37, 100), (2, 3, 17), (9, 1100)])
@pytest.mark.parametrize("mode", MODES)
def test_forward_on_the_cpu_interpreter(dtype, shape, mode):
    x = torch.randn(shape, dtype=dtype)
    w = torch.randn(shape[-1], dtype=dtype)
    for offset in (0.0, 1.0):
        y, rstd = cutile_cpp.rms_norm(x, w, 1e-5, mode=mode, offset=offset)
        assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
        assert rstd.shape == (x.numel() // shape[-1],) and rstd.dtype == torch.float32
        tol = TOLERANCE[dtype]
        torch.testing.assert_close(y.double(), reference(x, w, 1e-5, offset), rtol=tol, atol=tol)
        expected_rstd = torch.rsqrt(x.double().pow(2).mean(-1) + 1e-5).reshape(-1)
        torch.testing.assert_close(rstd.double(), expected_rstd, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 7), (37, 100), (70, 33), (3, 4, 20)])
@pytest.mark.parametrize("offset", [0.0, 1.0])
def test_backward_on_the_cpu_interpreter(dtype, shape, offset):
    x = torch.randn(shape, dtype=dtype)
    w = torch.randn(shape[-1], dtype=dtype)
    dy = torch.randn(shape, dtype=dtype)
    rstd = torch.rsqrt(x.float().pow(2).mean(-1) + 1e-5).reshape(-1)
    dx, dw = cutile_cpp.rms_norm_backward(dy, x, w, rstd, offset)
    assert dx.dtype == dtype and dw.dtype == dtype and dx.shape == x.shape and dw.shape == w.shape
    dx_ref, dw_ref = spec.reference_backward(dy.double(), x.double(), w.double(), rstd.double(), offset)
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(dx.double(), dx_ref, rtol=tol, atol=tol)
    torch.testing.assert_close(dw.double(), dw_ref, rtol=tol, atol=tol * (x.numel() // shape[-1]))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("offset", [0.0, 1.0])
def test_autograd_matches_float64(mode, offset):
    x = torch.randn(6, 2, 24).requires_grad_()
    w = torch.randn(24).requires_grad_()
    dy = torch.randn(6, 2, 24)
    cutile_cpp.rms_norm(x, w, 1e-5, offset=offset, mode=mode)[0].backward(dy)
    x64, w64 = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    reference(x64, w64, 1e-5, offset).backward(dy.double())
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(w.grad.double(), w64.grad, rtol=1e-4, atol=1e-4)


def test_autograd_under_torch_compile():
    x = torch.randn(8, 32).requires_grad_()
    w = torch.randn(32).requires_grad_()
    compiled = torch.compile(lambda a, b: cutile_cpp.rms_norm(a, b, 1e-6)[0] * 2.0, backend="aot_eager", fullgraph=True)
    compiled(x, w).sum().backward()
    x64, w64 = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    (reference(x64, w64, 1e-6) * 2.0).sum().backward()
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(w.grad.double(), w64.grad, rtol=1e-4, atol=1e-4)


def test_argument_checks():
    x, w = torch.randn(4, 8), torch.randn(8)
    with pytest.raises(TypeError, match=r"cutile_cpp_rms_norm: x \(i32\[4, 8\] on cpu\): the op supports f32, f16, bf16"):
        cutile_cpp.rms_norm(torch.zeros(4, 8, dtype=torch.int32), w, 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm: weight \(f32\[9\] on cpu\): dim 0 must be N = 8"):
        cutile_cpp.rms_norm(x, torch.randn(9), 1e-5)
    with pytest.raises(TypeError, match=r"cutile_cpp_rms_norm: weight \(f16\[8\] on cpu\) and x \(f32\[4, 8\] on cpu\)"):
        cutile_cpp.rms_norm(x, w.half(), 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp.rms_norm: x is on meta; the ops take CUDA or CPU tensors"):
        cutile_cpp.rms_norm(torch.zeros(4, 8, device="meta"), torch.zeros(8, device="meta"), 1e-5)
    with pytest.raises(ValueError, match=r"cutile_cpp.rms_norm: mode 'fast' is none of 'auto', 'static_persistent'"):
        cutile_cpp.rms_norm(x, w, 1e-5, mode="fast")
    with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm: requires N <= 32768 \(N = 40000 from x's dim 1\)"):
        cutile_cpp.rms_norm(torch.randn(1, 40000), torch.randn(40000), 1e-5)
    for eps in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm: eps is .*; it must satisfy finite\(eps\) && eps >= 0"):
            cutile_cpp.rms_norm(x, w, eps)
    with pytest.raises(TypeError, match=r"cutile_cpp.rms_norm: eps must be a real number, got str"):
        cutile_cpp.rms_norm(x, w, "1e-6")
    with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm_backward: x \(f32\[4, 8\] on cpu\): dim 1 must be N = 9 \(N from dy's dim 1\)"):
        cutile_cpp.rms_norm_backward(torch.randn(4, 9), x, w, torch.ones(4))
    with pytest.raises(TypeError, match=r"cutile_cpp_rms_norm_backward: rstd \(f16\[4\] on cpu\): the op supports f32"):
        cutile_cpp.rms_norm_backward(x, x, w, torch.ones(4, dtype=torch.float16))
    with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm_backward: rstd \(f32\[5\] on cpu\): dim 0 must be M = 4"):
        cutile_cpp.rms_norm_backward(x, x, w, torch.ones(5))


def _forward(abi, y, rstd, x, w, mode=0):
    return abi.cutile_cpp_rms_norm(ref(y), ref(rstd), ref(x), ref(w), 1e-5, 0.0, mode, 0, None)


def test_abi_errors(abi, status, desc):
    x, y, w, rstd = desc([4, 8], data=0x100000), desc([4, 8]), desc([8], data=0x200000), desc([4], data=0x300000)
    assert _forward(abi, y, rstd, x, w, mode=7) == status.INVALID_ARGUMENT
    assert last_error(abi) == (
        "cutile_cpp_rms_norm: mode is 7; expected a cutile_cpp_rms_norm_mode (0 auto, 1 static_persistent, "
        "2 multi_wave_reload, 3 multi_wave_cached)"
    )
    assert _forward(abi, y, desc([4], dtype="F16", data=0x300000), x, w) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_rms_norm: rstd (f16[4] on cuda:0): the op supports f32"
    assert _forward(abi, y, rstd, x, desc([8], dtype="BF16", data=0x200000)) == status.DTYPE_MISMATCH
    assert _forward(abi, y, rstd, x, desc([9], data=0x200000)) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_rms_norm: weight (f32[9] on cuda:0): dim 0 must be N = 8 (N from x's dim 1), got 9"
    )
    assert _forward(abi, y, desc([5], data=0x300000), x, w) == status.SHAPE_MISMATCH
    assert _forward(abi, y, rstd, x, desc([8, 1], data=0x200000)) == status.RANK_MISMATCH
    big = [desc([4, 40000]), desc([4], data=0x300000), desc([4, 40000], data=0x1000000), desc([40000], data=0x2000000)]
    assert _forward(abi, *big) == status.UNSUPPORTED_SHAPE
    assert abi.cutile_cpp_rms_norm(ref(y), ref(rstd), ref(x), ref(w), float("nan"), 0.0, 0, 0, None) == (
        status.INVALID_ARGUMENT
    )
    dx, dw, dy = desc([4, 8], data=0x400000), desc([8], dtype="F16", data=0x500000), desc([4, 8], data=0x600000)
    code = abi.cutile_cpp_rms_norm_backward(ref(dx), ref(dw), ref(dy), ref(x), ref(w), ref(rstd), 0.0, 0, None)
    assert code == status.DTYPE_MISMATCH and "dweight" in last_error(abi)


def test_aliasing_output_is_refused():
    x = torch.randn(4, 8)
    with pytest.raises(ValueError, match=r"cutile_cpp_rms_norm: output y .* overlaps x"):
        cutile_cpp.rms_norm(x, torch.randn(8), 1e-5, y=x)


# ---- GPU: TileGym's configurations and tolerances (tests/ops/test_rms_norm.py, experimental backward)

GPU_FORWARD = [
    (256, 256, torch.float16),
    (256, 768, torch.float16),
    (256, 18432, torch.float16),
    (4096, 2**8, torch.bfloat16),
    (31072, 4096, torch.bfloat16),
    (256, 256, torch.float32),
]


@needs_gpu
@pytest.mark.parametrize("m, n, dtype", GPU_FORWARD)
@pytest.mark.parametrize("mode", MODES)
def test_gpu_forward_matches_torch(m, n, dtype, mode):
    if mode in ("static_persistent", None) and n > 16384:
        pytest.skip("TileGym skips static_persistent above 16384 columns")
    x = torch.rand((m, n), dtype=dtype, device="cuda").mul_(0.5).add_(-2.3)
    w = torch.randn(n, dtype=dtype, device="cuda")
    y = torch.full_like(x, float("nan"))
    rstd = torch.full((m,), float("nan"), device="cuda")
    cutile_cpp.rms_norm(x, w, 1e-5, mode=mode, y=y, rstd=rstd)
    torch.cuda.synchronize()
    variance = x.float().pow(2).mean(-1, keepdim=True)
    expected = w * (x * torch.rsqrt(variance + 1e-5)).to(dtype)  # TileGym's (Hugging Face) reference
    torch.testing.assert_close(y, expected, rtol=0.0, atol=5e-2)
    torch.testing.assert_close(rstd, torch.rsqrt(variance.squeeze(-1) + 1e-5), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(cutile_cpp.rms_norm(x, w, 1e-5, mode=mode)[0], expected, rtol=0.0, atol=5e-2)


@needs_gpu
@pytest.mark.parametrize(
    "m, n, dtype",
    [
        (256, 256, torch.float16),
        (4096, 2**8, torch.bfloat16),
        (31072, 4096, torch.bfloat16),
        (256, 256, torch.float32),
        (2003, 2001, torch.float16),
    ],
)
def test_gpu_standalone_backward_matches_torch(m, n, dtype):
    from cutile_cpp.tilegym.rms_norm import get_rms_norm_module

    module = get_rms_norm_module()
    x = torch.rand((m, n), dtype=dtype, device="cuda").mul_(0.5).add_(-2.3)
    w = torch.randn(n, dtype=dtype, device="cuda")
    dy = torch.randn((m, n), dtype=dtype, device="cuda")
    rstd = module.compute_rstd_torch(x, 1e-5)
    dx, dw = module.rms_norm_backward(x, dy, w, rstd)
    dx_ref, dw_ref = module.rms_norm_backward_torch(x, dy, w, rstd)
    torch.testing.assert_close(dx, dx_ref, rtol=0.0, atol=5e-2)
    # dw sums m rows: at 31072 rows its entries reach ~50, where one bf16 ulp (0.25) exceeds TileGym's
    # atol; the sums are rounded to the dtype once each, in a different order, so allow one ulp there.
    dw_rtol = 2**-7 if dtype == torch.bfloat16 else 0.0
    torch.testing.assert_close(dw, dw_ref, rtol=dw_rtol, atol=5e-2)


@needs_gpu
@pytest.mark.parametrize("m, n, dtype", [(256, 256, torch.float16), (4096, 256, torch.bfloat16), (256, 256, torch.float32)])
@pytest.mark.parametrize("mode", MODES)
def test_gpu_autograd_matches_torch(m, n, dtype, mode):
    x = torch.rand((m, n), dtype=dtype, device="cuda").mul_(0.5).add_(-2.3)
    w = torch.randn(n, dtype=dtype, device="cuda")
    dy = torch.randn((m, n), dtype=dtype, device="cuda")
    xc, wc = x.clone().requires_grad_(), w.clone().requires_grad_()
    cutile_cpp.rms_norm(xc, wc, 1e-5, mode=mode)[0].backward(dy)
    xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
    xf = xr.float()
    ((xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-5)) * wr.float()).to(dtype).backward(dy)
    torch.testing.assert_close(xc.grad, xr.grad, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(wc.grad, wr.grad, rtol=1e-2, atol=1e-2)
