"""geglu and geglu_backward: the generated functions' signatures, CPU-interpreter round trips and autograd
against the reference for both forms and every dtype, TileGym's geglu with its `dim` (the face module
cutile_cpp.tilegym.geglu), argument errors and the C ABI's statuses, torch.compile; on a GPU, TileGym's test
configurations and tolerances."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
FORMS = ["none", "tanh"]
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# 'none' is TileGym's cutile form of GELU, within 5e-4 of the reference's erf form (test_gelu.py): with
# inputs in [-1, 1] the products stay within that too.
FORM_SLACK = {"none": 5e-4, "tanh": 0.0}
reference = bench_spec("geglu").reference


def uniform(shape, dtype=torch.float32, **kwargs):
    return (torch.rand(shape, dtype=torch.float64, **kwargs) * 2 - 1).to(dtype)


def test_signatures():
    assert str(inspect.signature(cutile_cpp.geglu)) == "(x, approximate='none', *, y=None)"
    assert str(inspect.signature(cutile_cpp.geglu_backward)) == "(dy, x, approximate='none', *, dx=None)"


@pytest.mark.parametrize("approximate", FORMS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4,), (16, 6), (5, 4, 40), (3, 7, 2000)])
def test_forward_and_autograd_on_the_cpu_interpreter(approximate, dtype, shape):
    x = uniform(shape, dtype).requires_grad_()
    y = cutile_cpp.geglu(x, approximate)
    x64 = x.detach().double().requires_grad_()
    y64 = reference(x64, -1, approximate)
    assert y.shape == y64.shape and y.dtype == dtype and y.is_contiguous()
    tol, slack = TOLERANCE[dtype], FORM_SLACK[approximate]
    torch.testing.assert_close(y.double(), y64, rtol=tol, atol=tol + slack)
    dy = uniform(y64.shape, dtype)
    (dx,) = torch.autograd.grad(y, x, dy)
    (dx64,) = torch.autograd.grad(y64, x64, dy.double())
    torch.testing.assert_close(dx.double(), dx64, rtol=tol, atol=tol + slack)


def test_backward_op_and_a_strided_input_on_the_cpu_interpreter():
    x = uniform((40, 18)).t()  # (18, 40), not contiguous
    dy = uniform((18, 20))
    dx = cutile_cpp.geglu_backward(dy, x, "tanh")
    x64 = x.double().requires_grad_()
    (want,) = torch.autograd.grad(reference(x64, -1, "tanh"), x64, dy.double())
    torch.testing.assert_close(dx.double(), want, rtol=2e-5, atol=2e-5)
    torch.testing.assert_close(cutile_cpp.geglu(x, "tanh"), reference(x, -1, "tanh"), rtol=2e-5, atol=2e-5)


def test_argument_errors():
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_geglu: x \(f32\[4, 3\] on cpu\): dim 1 is 3, which must be 2\*N"
    ):
        cutile_cpp.geglu(torch.zeros(4, 3))
    with pytest.raises(ValueError, match=r"cutile_cpp.geglu: approximate 'exact' is none of 'none', 'tanh'"):
        cutile_cpp.geglu(torch.zeros(4, 4), "exact")
    with pytest.raises(ValueError, match=r"cutile_cpp.geglu: x needs a last axis, got a 0-dim tensor"):
        cutile_cpp.geglu(torch.zeros(()))
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_geglu_backward: x \(f32\[4, 6\] on cpu\): dim 1 must be 2\*N = 4"
    ):
        cutile_cpp.geglu_backward(torch.zeros(4, 2), torch.zeros(4, 6))


def test_abi_statuses(abi, status, desc):
    x = desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_geglu(ref(desc([4, 5], device="CPU")), ref(x), 0, 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi) == "cutile_cpp_geglu: y (f32[4, 5] on cpu): dim 1 must be N = 4 (N from x's dim 1), got 5"
    assert abi.cutile_cpp_geglu(ref(desc([4, 4], device="CPU")), ref(x), 5, 0, None) == status.INVALID_ARGUMENT
    dx, dy = desc([4, 8], device="CPU"), desc([4, 4], device="CPU", data=0x200000)
    assert abi.cutile_cpp_geglu_backward(ref(dx), ref(dy), ref(desc([8], device="CPU", data=0x100000)), 0, 0, None) == (
        status.RANK_MISMATCH
    )
    narrow = desc([4, 6], device="CPU", data=0x100000)
    assert abi.cutile_cpp_geglu_backward(ref(dx), ref(dy), ref(narrow), 0, 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_geglu_backward: x (f32[4, 6] on cpu): dim 1 must be 2*N = 8 (N from dy's dim 1), got 6"
    )


def test_forward_and_backward_trace_under_torch_compile_on_the_cpu():
    x = uniform((6, 4, 10)).requires_grad_()
    torch.compile(lambda t: cutile_cpp.geglu(t, "tanh").sum(), backend="aot_eager", fullgraph=True)(x).backward()
    x64 = x.detach().double().requires_grad_()
    reference(x64, -1, "tanh").sum().backward()
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-5, atol=1e-5)


# ---- TileGym: geglu(input, dim=-1, approximate="none"), the face module's


@pytest.fixture
def tilegym_geglu():
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops.activation
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    ours = dispatcher._REGISTRY["geglu"]["cutile-cpp"]
    if dispatcher.has_backend_impl("geglu", "cutile"):
        assert parameters(ours) == parameters(dispatcher._REGISTRY["geglu"]["cutile"])
    return lambda x, dim=-1, approximate="none": tilegym.ops.activation.geglu(
        x, dim=dim, approximate=approximate, backend="cutile-cpp"
    )


@pytest.mark.parametrize("approximate", FORMS)
@pytest.mark.parametrize("shape, dim", [((4,), 0), ((16, 6), 0), ((16, 6), 1), ((5, 4, 40), 1), ((6, 4, 10), -3)])
def test_tilegym_geglu_splits_any_dim(tilegym_geglu, monkeypatch, approximate, shape, dim):
    calls = launched_ops(monkeypatch)
    x = uniform(shape).requires_grad_()
    y = tilegym_geglu(x, dim, approximate)
    x64 = x.detach().double().requires_grad_()
    y64 = reference(x64, dim, approximate)
    assert y.shape == y64.shape and y.is_contiguous()
    torch.testing.assert_close(y.double(), y64, rtol=2e-5, atol=2e-5 + FORM_SLACK[approximate])
    dy = uniform(y64.shape)
    y.backward(dy)
    y64.backward(dy.double())
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=2e-5, atol=2e-5 + FORM_SLACK[approximate])
    assert calls == ["geglu", "geglu_backward"]


def test_tilegym_geglu_argument_errors(tilegym_geglu):
    with pytest.raises(
        ValueError, match=r"cutile-cpp geglu: input's dimension 0 must have an even size, got shape \(3, 4\)"
    ):
        tilegym_geglu(torch.zeros(3, 4), 0)
    with pytest.raises(ValueError, match=r"cutile-cpp geglu: dim 2 is out of range for a 2-d input"):
        tilegym_geglu(torch.zeros(4, 4), 2)
    with pytest.raises(ValueError, match=r"cutile-cpp geglu: input must have at least one dimension"):
        tilegym_geglu(torch.zeros(()))


# ---- GPU: TileGym's tests/ops/activation/test_geglu.py configurations and tolerances


@needs_gpu
@pytest.mark.parametrize("approximate", FORMS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize(
    "shape, dim",
    [((4,), 0), ((16, 4), 0), ((16, 4), 1), ((64, 16, 4), 0), ((64, 16, 4), 1), ((64, 16, 4), 2)]
    + [((256, 64, 16, 4), d) for d in range(4)]
    + [((256, 64, 16, 128), 3)],
)
def test_gpu_matches_torch_at_tilegyms_configs(tilegym_geglu, approximate, dtype, shape, dim):
    x = torch.rand(shape, dtype=dtype, device="cuda").mul_(1.2).add_(0.6).requires_grad_(True)
    x_ref = x.detach().clone().requires_grad_(True)
    y = tilegym_geglu(x, dim, approximate)
    y_ref = reference(x_ref, dim, approximate)
    torch.testing.assert_close(y, y_ref, rtol=1e-2, atol=1e-2)
    dy = (0.1 * torch.randn(y_ref.shape, device="cuda")).to(dtype)
    y.backward(dy)
    y_ref.backward(dy)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-2, atol=1e-2)


@needs_gpu
def test_gpu_outputs_are_written_everywhere():
    x = torch.randn(300, 2 * 700, device="cuda", dtype=torch.bfloat16)
    y = cutile_cpp.geglu(x, y=torch.full((300, 700), float("nan"), device="cuda", dtype=torch.bfloat16))
    dx = cutile_cpp.geglu_backward(torch.ones_like(y), x, dx=torch.full_like(x, float("nan")))
    assert not y.isnan().any() and not dx.isnan().any()


@needs_gpu
def test_gpu_backward_under_torch_compile():
    x = torch.randn(64, 128, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.geglu(t, "tanh").sum(), fullgraph=True)(x).backward()
    reference(x_ref, -1, "tanh").sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)
