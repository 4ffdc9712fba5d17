"""swiglu and swiglu_backward: the generated functions' signatures, CPU-interpreter round trips and autograd
in both arguments against the reference for every dtype and any leading shape, argument errors and the C
ABI's statuses, torch.compile, TileGym's get_swiglu and get_swiglu_module (the face module
cutile_cpp.tilegym.swiglu); on a GPU, TileGym's test configurations and tolerances."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppTypeError, CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
# The dtype's rounding of the result, twice: the product is taken in the dtype, of silu(a) rounded to it.
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
reference = bench_spec("swiglu").reference


def test_signatures():
    assert str(inspect.signature(cutile_cpp.swiglu)) == "(a, b, *, c=None)"
    assert str(inspect.signature(cutile_cpp.swiglu_backward)) == "(dc, a, b, *, da=None, db=None)"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (1, 1), (5, 100), (2, 3, 300)])
def test_forward_and_autograd_on_the_cpu_interpreter(dtype, shape):
    a = torch.randn(shape, dtype=dtype, requires_grad=True)
    b = torch.randn(shape, dtype=dtype, requires_grad=True)
    c = cutile_cpp.swiglu(a, b)
    a64, b64 = (t.detach().double().requires_grad_() for t in (a, b))
    c64 = reference(a64, b64)
    assert c.shape == a.shape and c.dtype == dtype and c.is_contiguous()
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(c.double(), c64, rtol=tol, atol=tol)
    dc = torch.randn(shape, dtype=dtype)
    da, db = torch.autograd.grad(c, (a, b), dc)
    da64, db64 = torch.autograd.grad(c64, (a64, b64), dc.double())
    torch.testing.assert_close(da.double(), da64, rtol=tol, atol=tol)
    torch.testing.assert_close(db.double(), db64, rtol=tol, atol=tol)


def test_backward_op_and_strided_inputs_on_the_cpu_interpreter():
    a, b = torch.randn(70, 9).t(), torch.randn(9, 140)[:, ::2]
    torch.testing.assert_close(cutile_cpp.swiglu(a, b), reference(a, b))
    dc = torch.randn(9, 70)
    a64, b64 = (t.double().requires_grad_() for t in (a, b))
    want = torch.autograd.grad(reference(a64, b64), (a64, b64), dc.double())
    for got, expected in zip(cutile_cpp.swiglu_backward(dc, a, b), want):
        torch.testing.assert_close(got.double(), expected, rtol=2e-5, atol=2e-5)


def test_argument_errors():
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_swiglu: b \(f32\[4, 3\] on cpu\): dim 1 must be N = 4"
    ):
        cutile_cpp.swiglu(torch.zeros(4, 4), torch.zeros(4, 3))
    with pytest.raises(
        ValueError, match=r"cutile_cpp.swiglu: b has shape \(2, 4\), which does not match a's \(4,\) in its leading"
    ):
        cutile_cpp.swiglu(torch.zeros(4, 4), torch.zeros(2, 4))
    with pytest.raises(
        CutileCppTypeError, match=r"cutile_cpp_swiglu: b \(bf16\[1, 4\] on cpu\) and a \(f32\[1, 4\] on cpu\) must have"
    ):
        cutile_cpp.swiglu(torch.zeros(4), torch.zeros(4, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match=r"cutile_cpp.swiglu: b must be a torch.Tensor, got float"):
        cutile_cpp.swiglu(torch.zeros(4), 1.0)


def test_abi_statuses(abi, status, desc):
    c, a = desc([4, 8], device="CPU"), desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_swiglu(ref(c), ref(a), ref(desc([4, 9], device="CPU", data=0x200000)), 0, None) == (
        status.SHAPE_MISMATCH
    )
    assert last_error(abi) == "cutile_cpp_swiglu: b (f32[4, 9] on cpu): dim 1 must be N = 8 (N from a's dim 1), got 9"
    da, db = desc([4, 8], device="CPU"), desc([4, 8], device="CPU", data=0x10008)
    dc, b = desc([4, 8], device="CPU", data=0x200000), desc([4, 8], device="CPU", data=0x300000)
    assert abi.cutile_cpp_swiglu_backward(ref(da), ref(db), ref(dc), ref(a), ref(b), 0, None) == status.ALIASING
    assert last_error(abi).startswith("cutile_cpp_swiglu_backward: output da (f32[4, 8] on cpu) overlaps db")
    assert abi.cutile_cpp_swiglu_backward(ref(da), None, ref(dc), ref(a), ref(b), 0, None) == status.NULL_POINTER


def test_traces_under_torch_compile_on_the_cpu():
    a = torch.randn(6, 70, requires_grad=True)
    b = torch.randn(6, 70, requires_grad=True)
    torch.compile(lambda x, y: cutile_cpp.swiglu(x, y).sum(), backend="aot_eager", fullgraph=True)(a, b).backward()
    a64, b64 = (t.detach().double().requires_grad_() for t in (a, b))
    reference(a64, b64).sum().backward()
    torch.testing.assert_close(a.grad.double(), a64.grad, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(b.grad.double(), b64.grad, rtol=1e-5, atol=1e-5)


# ---- TileGym: get_swiglu and get_swiglu_module


@pytest.fixture
def tilegym_ops():
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    for name in ("get_swiglu", "get_swiglu_module"):
        ours = dispatcher._REGISTRY[name]["cutile-cpp"]
        if dispatcher.has_backend_impl(name, "cutile"):
            assert parameters(ours) == parameters(dispatcher._REGISTRY[name]["cutile"])
    return tilegym.ops


def test_tilegym_get_swiglu_is_our_swiglu(tilegym_ops, monkeypatch):
    calls = launched_ops(monkeypatch)
    swiglu = tilegym_ops.get_swiglu(backend="cutile-cpp")
    a = torch.randn(6, 40, requires_grad=True)
    b = torch.randn(6, 40, requires_grad=True)
    c = swiglu(a, b)
    torch.testing.assert_close(c, reference(a, b))
    c.sum().backward()
    assert calls == ["swiglu", "swiglu_backward"]


def test_tilegym_swiglu_module_runs_our_swiglu(tilegym_ops, monkeypatch):
    calls = launched_ops(monkeypatch)
    config = type("Config", (), {"hidden_size": 16, "intermediate_size": 48, "hidden_act": "silu"})()
    mlp = tilegym_ops.get_swiglu_module(backend="cutile-cpp")(config)
    x = torch.randn(3, 16)
    with torch.no_grad():
        y = mlp(x)
        want = mlp.down_proj(reference(mlp.gate_proj(x), mlp.up_proj(x)))
    assert calls == ["swiglu"]
    torch.testing.assert_close(y, want)
    config.hidden_act = "gelu"
    with pytest.raises(ValueError, match="Activation function gelu not supported"):
        tilegym_ops.get_swiglu_module(backend="cutile-cpp")(config)


# ---- GPU: TileGym's tests/ops/test_swiglu.py configurations and tolerances (rtol 1e-2, atol 1e-2)


@needs_gpu
@pytest.mark.parametrize(
    "batch, seq, hidden",
    [(8, 2048, 4096), (4, 1024, 2048), (2, 512, 1024), (7, 512, 1024), (13, 256, 2048), (8, 100, 1024)]
    + [(8, 333, 512), (8, 256, 1000), (8, 256, 1500), (8, 256, 3000), (7, 100, 1000), (13, 333, 1500)]
    + [(8, 1, 14336), (1, 4, 16384), (1, 2, 20000)],
)
def test_gpu_forward_matches_torch_at_tilegyms_configs(batch, seq, hidden):
    a = torch.randn(batch, seq, hidden, device="cuda")
    b = torch.randn(batch, seq, hidden, device="cuda")
    c = cutile_cpp.swiglu(a, b, c=torch.full_like(a, float("nan")))
    torch.testing.assert_close(c, reference(a, b), rtol=1e-2, atol=1e-2)


@needs_gpu
@pytest.mark.parametrize(
    "batch, seq, hidden, dtype",
    [(4, 512, 1024, torch.float32), (8, 256, 2048, torch.float32), (2, 1024, 512, torch.float32)]
    + [(8, 512, 512, torch.float16), (8, 512, 1024, torch.float16), (4, 256, 1024, torch.bfloat16)]
    + [(7, 256, 512, torch.float32), (8, 333, 256, torch.float32), (4, 256, 1000, torch.float32)]
    + [(4, 128, 3000, torch.float32), (13, 333, 1500, torch.float32), (1, 2, 8192, torch.float32)],
)
def test_gpu_backward_matches_torch_at_tilegyms_configs(batch, seq, hidden, dtype):
    torch.manual_seed(0)
    a = torch.randn(batch, seq, hidden, dtype=dtype, device="cuda", requires_grad=True)
    b = torch.randn(batch, seq, hidden, dtype=dtype, device="cuda", requires_grad=True)
    a_ref, b_ref = (t.detach().clone().requires_grad_(True) for t in (a, b))
    out = cutile_cpp.swiglu(a, b)
    out_ref = reference(a_ref, b_ref)
    torch.testing.assert_close(out, out_ref, rtol=1e-2, atol=1e-2)
    grad = torch.randn_like(out)
    out.backward(grad)
    out_ref.backward(grad)
    torch.testing.assert_close(a.grad, a_ref.grad, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(b.grad, b_ref.grad, rtol=1e-2, atol=1e-2)
    poisoned = [torch.full_like(a, float("nan")) for _ in range(2)]
    da, db = cutile_cpp.swiglu_backward(grad, a.detach(), b.detach(), da=poisoned[0], db=poisoned[1])
    torch.testing.assert_close(da, a.grad, rtol=0, atol=0)
    torch.testing.assert_close(db, b.grad, rtol=0, atol=0)


@needs_gpu
def test_gpu_backward_under_torch_compile():
    a = torch.randn(64, 300, device="cuda", requires_grad=True)
    b = torch.randn(64, 300, device="cuda", requires_grad=True)
    a_ref, b_ref = (t.detach().clone().requires_grad_(True) for t in (a, b))
    torch.compile(lambda x, y: cutile_cpp.swiglu(x, y).sum(), fullgraph=True)(a, b).backward()
    reference(a_ref, b_ref).sum().backward()
    torch.testing.assert_close(a.grad, a_ref.grad, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(b.grad, b_ref.grad, rtol=1e-4, atol=1e-5)
