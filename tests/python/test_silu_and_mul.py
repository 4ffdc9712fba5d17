"""silu_and_mul and silu_and_mul_backward: the generated functions' signatures, CPU-interpreter round trips
and autograd against the reference for every dtype and any leading shape, a given output (TileGym's `out`),
argument errors and the C ABI's statuses, torch.compile, the TileGym registration; on a GPU, TileGym's test
configurations and tolerances."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppTypeError, CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
reference = bench_spec("silu_and_mul").reference


def test_signatures():
    assert str(inspect.signature(cutile_cpp.silu_and_mul)) == "(x, *, y=None)"
    assert str(inspect.signature(cutile_cpp.silu_and_mul_backward)) == "(dy, x, *, dx=None)"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 2), (5, 200), (2, 3, 130), (3, 600)])
def test_forward_and_autograd_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype, requires_grad=True)
    y = cutile_cpp.silu_and_mul(x)
    x64 = x.detach().double().requires_grad_()
    y64 = reference(x64)
    assert y.shape == y64.shape and y.dtype == dtype and y.is_contiguous()
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(y.double(), y64, rtol=tol, atol=tol)
    dy = torch.randn(y64.shape, dtype=dtype)
    (dx,) = torch.autograd.grad(y, x, dy)
    (dx64,) = torch.autograd.grad(y64, x64, dy.double())
    torch.testing.assert_close(dx.double(), dx64, rtol=tol, atol=tol)


def test_backward_op_and_a_strided_input_on_the_cpu_interpreter():
    x = torch.randn(64, 10).t()  # (10, 64), not contiguous
    torch.testing.assert_close(cutile_cpp.silu_and_mul(x), reference(x))
    dy = torch.randn(10, 32)
    x64 = x.double().requires_grad_()
    (want,) = torch.autograd.grad(reference(x64), x64, dy.double())
    torch.testing.assert_close(cutile_cpp.silu_and_mul_backward(dy, x).double(), want, rtol=2e-5, atol=2e-5)


def test_a_given_output_is_written_and_returned():
    x = torch.randn(4, 3, 64)
    out = torch.full((4, 3, 32), float("nan"))
    result = cutile_cpp.silu_and_mul(x, y=out)
    assert result.data_ptr() == out.data_ptr() and result.shape == out.shape
    torch.testing.assert_close(out, reference(x))


def test_argument_errors():
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_silu_and_mul: x \(f32\[4, 5\] on cpu\): dim 1 is 5, which must be 2\*H"
    ):
        cutile_cpp.silu_and_mul(torch.zeros(4, 5))
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_silu_and_mul: y \(f32\[4, 3\] on cpu\): dim 1 must be H = 2"
    ):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), y=torch.zeros(4, 3))
    with pytest.raises(
        CutileCppTypeError, match=r"cutile_cpp_silu_and_mul: y \(f16\[4, 2\] on cpu\) and x \(f32\[4, 4\] on cpu\) must"
    ):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), y=torch.zeros(4, 2, dtype=torch.float16))
    with pytest.raises(TypeError, match=r"cutile_cpp.silu_and_mul: y must be a torch.Tensor, got int"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), y=3)


def test_abi_statuses(abi, status, desc):
    x = desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_silu_and_mul(ref(desc([3, 4], device="CPU")), ref(x), 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_silu_and_mul: y (f32[3, 4] on cpu): dim 0 must be M = 4 (M from x's dim 0), got 3"
    )
    dx, dy = desc([4, 8], device="CPU"), desc([4, 4], device="CPU", data=0x200000)
    backward = abi.cutile_cpp_silu_and_mul_backward
    assert backward(ref(dx), ref(dy), ref(desc([4, 8], "BF16", "CPU", 0, 0x100000)), 0, None) == status.DTYPE_MISMATCH
    assert backward(ref(dx), ref(dy), ref(desc([4, 6], device="CPU", data=0x100000)), 0, None) == status.SHAPE_MISMATCH
    assert backward(ref(dx), ref(dy), ref(desc([4, 8], device="CPU", data=0x10010)), 0, None) == status.ALIASING


def test_traces_under_torch_compile_on_the_cpu():
    x = torch.randn(6, 40, requires_grad=True)
    torch.compile(lambda t: cutile_cpp.silu_and_mul(t).sum(), backend="aot_eager", fullgraph=True)(x).backward()
    x64 = x.detach().double().requires_grad_()
    reference(x64).sum().backward()
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        out = torch.empty(6, 20)
        torch.compile(lambda t, o: cutile_cpp.silu_and_mul(t, y=o), backend="aot_eager", fullgraph=True)(x, out)
    torch.testing.assert_close(out, reference(x.detach()))


def test_tilegym_registration(monkeypatch):
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    ours = dispatcher._REGISTRY["silu_and_mul"]["cutile-cpp"]
    if dispatcher.has_backend_impl("silu_and_mul", "cutile"):
        assert parameters(ours) == parameters(dispatcher._REGISTRY["silu_and_mul"]["cutile"])
    calls = launched_ops(monkeypatch)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(2, 3, 40, device=device)
    torch.testing.assert_close(tilegym.ops.silu_and_mul(x, backend="cutile-cpp"), reference(x))
    out = torch.full((2, 3, 20), float("nan"), device=device)
    tilegym.ops.silu_and_mul(x, out=out, backend="cutile-cpp")  # TileGym's `out`: written in place
    torch.testing.assert_close(out, reference(x))
    xg = x.clone().requires_grad_()
    tilegym.ops.silu_and_mul(xg, backend="cutile-cpp").sum().backward()
    assert calls == ["silu_and_mul", "silu_and_mul", "silu_and_mul", "silu_and_mul_backward"]


# ---- GPU: TileGym's tests/ops/test_silu_and_mul.py configurations and tolerances (rtol 0, atol 1e-2)

TILEGYM_CONFIGS = [
    (8, 512, 512, torch.float16),
    (8, 512, 2048, torch.float32),
    (8, 1024, 1024, torch.float32),
    (16, 1024, 1024, torch.float16),
    (32, 512, 1024, torch.float16),
    (32, 1024, 4096, torch.float32),
    (7, 512, 512, torch.float32),
    (8, 333, 1024, torch.float32),
    (8, 256, 1000, torch.float32),
    (8, 256, 1500, torch.float32),
    (8, 256, 3000, torch.float32),
    (13, 333, 1500, torch.float32),
    (4, 64, 14336, torch.bfloat16),
    (2, 16, 20000, torch.float16),
]


@needs_gpu
@pytest.mark.parametrize("batch, seq, hidden, dtype", TILEGYM_CONFIGS)
def test_gpu_matches_torch_at_tilegyms_configs(batch, seq, hidden, dtype):
    torch.manual_seed(0)
    x = torch.randn(batch, seq, 2 * hidden, dtype=dtype, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    y = cutile_cpp.silu_and_mul(x)
    y_ref = reference(x_ref)
    # bf16 (not in TileGym's list) also allows its one-ulp rounding differences: torch rounds silu(a) first.
    rtol = 1.6e-2 if dtype == torch.bfloat16 else 0.0
    torch.testing.assert_close(y, y_ref, rtol=rtol, atol=1e-2)
    dy = 0.1 * torch.randn(batch, seq, hidden, dtype=dtype, device="cuda")
    y.backward(dy)
    y_ref.backward(dy)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=rtol, atol=1e-2)
    dx = cutile_cpp.silu_and_mul_backward(dy, x.detach(), dx=torch.full_like(x, float("nan")))
    torch.testing.assert_close(dx, x.grad, rtol=0, atol=0)


@needs_gpu
def test_gpu_into_a_given_output():
    x = torch.randn(64, 1024, 2 * 512, device="cuda", dtype=torch.float16)
    out = torch.full((64, 1024, 512), float("nan"), device="cuda", dtype=torch.float16)
    cutile_cpp.silu_and_mul(x, y=out)
    torch.testing.assert_close(out, reference(x.double()).half(), rtol=0.0, atol=1e-2)


@needs_gpu
def test_gpu_backward_under_torch_compile():
    x = torch.randn(64, 256, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.silu_and_mul(t).sum(), fullgraph=True)(x).backward()
    reference(x_ref).sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)
