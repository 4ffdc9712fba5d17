"""gelu and gelu_backward: the generated functions' signatures, CPU-interpreter round trips and autograd
against the reference for both forms and every dtype, the choice's checks in Python and the C ABI, the C ABI's
statuses, torch.compile, the TileGym registration; on a GPU, TileGym's configurations and tolerances with
poisoned outputs, the wide tile of 2^24 elements."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppTypeError, CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
FORMS = ["none", "tanh"]
# CPU-interpreter round trips against float64: the dtype's rounding of the result (f16, bf16: computed in it).
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# 'none' is TileGym's cutile form (tanh u as 2σ(2u) − 1), not the reference's erf: gelu stays within 5e-4 of
# it (test_none_stays_near_erfs_gelu) and gelu' within 2e-4.
FORM_SLACK = {"none": 5e-4, "tanh": 0.0}
reference = bench_spec("gelu").reference


def test_signatures():
    assert str(inspect.signature(cutile_cpp.gelu)) == "(x, approximate='none', *, y=None)"
    assert str(inspect.signature(cutile_cpp.gelu_backward)) == "(dy, x, approximate='none', *, dx=None)"


@pytest.mark.parametrize("approximate", FORMS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (37, 29), (3, 1000)])
def test_forward_and_autograd_on_the_cpu_interpreter(approximate, dtype, shape):
    x = (torch.randn(shape, dtype=torch.float64) * 2).to(dtype).requires_grad_()
    y = cutile_cpp.gelu(x, approximate)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    tol, slack = TOLERANCE[dtype], FORM_SLACK[approximate]
    x64 = x.detach().double().requires_grad_()
    y64 = reference(x64, approximate)
    torch.testing.assert_close(y.double(), y64, rtol=tol, atol=tol + slack)
    dy = torch.rand(shape, dtype=dtype) * 2 - 1
    (dx,) = torch.autograd.grad(y, x, dy)
    (dx64,) = torch.autograd.grad(y64, x64, dy.double())
    torch.testing.assert_close(dx.double(), dx64, rtol=tol, atol=tol + slack)


@pytest.mark.parametrize("approximate", FORMS)
def test_backward_op_on_the_cpu_interpreter(approximate):
    x, dy = torch.randn(5, 300), torch.rand(5, 300) * 2 - 1
    dx = cutile_cpp.gelu_backward(dy, x, approximate)
    x64 = x.double().requires_grad_()
    (want,) = torch.autograd.grad(reference(x64, approximate), x64, dy.double())
    torch.testing.assert_close(dx.double(), want, rtol=2e-5, atol=2e-5 + FORM_SLACK[approximate])


def test_none_stays_near_erfs_gelu():
    x = torch.linspace(-8, 8, 6001)
    torch.testing.assert_close(cutile_cpp.gelu(x), reference(x.double()).float(), rtol=0, atol=5e-4)


def test_strided_inputs_and_a_given_output():
    x = torch.randn(50, 30).t()
    y = cutile_cpp.gelu(x, "tanh")
    assert y.is_contiguous()
    torch.testing.assert_close(y, reference(x, "tanh"))
    out = torch.full((30, 50), float("nan"))
    result = cutile_cpp.gelu(x, "tanh", y=out)  # out itself, seen in x's shape
    assert result.data_ptr() == out.data_ptr() and result.shape == out.shape
    torch.testing.assert_close(out, reference(x, "tanh"))


def test_argument_errors():
    with pytest.raises(ValueError, match=r"cutile_cpp.gelu: approximate 'erf' is none of 'none', 'tanh'"):
        cutile_cpp.gelu(torch.zeros(3), "erf")
    with pytest.raises(TypeError, match=r"cutile_cpp.gelu: approximate must be one of \['none', 'tanh'\], got 1.5"):
        cutile_cpp.gelu(torch.zeros(3), 1.5)
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_gelu: approximate is 2; expected a cutile_cpp_gelu_approximate"
    ):
        cutile_cpp.gelu(torch.zeros(3), 2)
    with pytest.raises(
        CutileCppTypeError, match=r"cutile_cpp_gelu_backward: x \(f16\[3\] on cpu\) and dy \(f32\[3\] on cpu\) must"
    ):
        cutile_cpp.gelu_backward(torch.zeros(3), torch.zeros(3, dtype=torch.float16))
    with pytest.raises(
        ValueError, match=r"cutile_cpp.gelu_backward: x has shape \(4,\), which does not match dy's \(3,\)"
    ):
        cutile_cpp.gelu_backward(torch.zeros(3), torch.zeros(4))


def test_abi_statuses(abi, status, desc):
    y, x = desc([8], device="CPU"), desc([8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_gelu(ref(y), ref(x), 2, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == (
        "cutile_cpp_gelu: approximate is 2; expected a cutile_cpp_gelu_approximate (0 none, 1 tanh)"
    )
    assert abi.enums["cutile_cpp_gelu_approximate"] == {
        "CUTILE_CPP_GELU_APPROXIMATE_NONE": 0, "CUTILE_CPP_GELU_APPROXIMATE_TANH": 1
    }
    dy = desc([8], device="CPU", data=0x200000)
    assert abi.cutile_cpp_gelu_backward(ref(y), ref(dy), ref(desc([7], device="CPU", data=0x100000)), 0, 0, None) == (
        status.SHAPE_MISMATCH
    )
    assert last_error(abi) == (
        "cutile_cpp_gelu_backward: x (f32[7] on cpu): dim 0 must be N = 8 (N from dy's dim 0), got 7"
    )
    assert abi.cutile_cpp_gelu_backward(ref(y), ref(dy), None, 0, 0, None) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_gelu_backward: x: the descriptor is null"
    assert abi.cutile_cpp_gelu_backward(ref(x), ref(dy), ref(x), 1, 0, None) == status.ALIASING


@pytest.mark.parametrize("approximate", FORMS)
def test_forward_and_backward_trace_under_torch_compile_on_the_cpu(approximate):
    x = torch.randn(7, 50, requires_grad=True)
    torch.compile(lambda t: cutile_cpp.gelu(t, approximate).sum(), backend="aot_eager", fullgraph=True)(x).backward()
    x64 = x.detach().double().requires_grad_()
    reference(x64, approximate).sum().backward()
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-5, atol=1e-5 + FORM_SLACK[approximate])


def test_tilegym_registration(monkeypatch):
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops.activation
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    ours = dispatcher._REGISTRY["gelu"]["cutile-cpp"]
    if dispatcher.has_backend_impl("gelu", "cutile"):
        assert parameters(ours) == parameters(dispatcher._REGISTRY["gelu"]["cutile"])
    calls = launched_ops(monkeypatch)
    x = torch.randn(6, 40, device="cuda" if torch.cuda.is_available() else "cpu", requires_grad=True)
    for approximate in FORMS:
        y = tilegym.ops.activation.gelu(x, approximate=approximate, backend="cutile-cpp")
        torch.testing.assert_close(y, reference(x, approximate), rtol=0, atol=1e-3)
        y.sum().backward()
    assert calls == ["gelu", "gelu_backward"] * 2


# ---- GPU: TileGym's tests/ops/activation/test_gelu.py configurations and tolerances (rtol 0, atol 1e-2)


@needs_gpu
@pytest.mark.parametrize("approximate", FORMS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(256, 2048), (7, 1001), (1 << 24,)])
def test_gpu_forward_and_backward_match_torch(approximate, dtype, shape):
    x = torch.randn(shape, dtype=dtype, device="cuda")
    dy = 0.1 * torch.randn_like(x)
    y = cutile_cpp.gelu(x, approximate, y=torch.full_like(x, float("nan")))
    dx = cutile_cpp.gelu_backward(dy, x, approximate, dx=torch.full_like(x, float("nan")))
    x_ref = x.clone().requires_grad_()
    y_ref = reference(x_ref, approximate)
    y_ref.backward(dy)
    # bf16, which TileGym does not test, also allows one-ulp rounding differences: ours rounds once, and
    # 'none' is not torch's erf GELU, so results may round to neighbouring bf16 values.
    bf16 = dtype == torch.bfloat16
    torch.testing.assert_close(y, y_ref, rtol=1.6e-2 if bf16 else 0.0, atol=1e-2)
    torch.testing.assert_close(dx, x_ref.grad, rtol=1.6e-2 if bf16 else 1e-2, atol=1e-2)
    xa = x.clone().requires_grad_()
    cutile_cpp.gelu(xa, approximate).backward(dy)
    torch.testing.assert_close(xa.grad, dx, rtol=0, atol=0)


@needs_gpu
def test_gpu_backward_under_torch_compile():
    x = torch.randn(64, 100, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.gelu(t, "tanh").sum(), fullgraph=True)(x).backward()
    reference(x_ref, "tanh").sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)
