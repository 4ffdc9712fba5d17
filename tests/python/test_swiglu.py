"""cutile_cpp.swiglu and its backward: CPU-interpreter round trips against float64, autograd in both
arguments, argument and C ABI errors, and TileGym's GPU configurations and tolerances."""

from __future__ import annotations

import pytest
import torch
from activation_support import FLOATS, TOLERANCE, poison_cuda_allocator

import cutile_cpp
from support import last_error, needs_gpu, ref


def reference64(a, b):
    return torch.nn.functional.silu(a.double()) * b.double()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (5, 100), (2, 3, 300)])
def test_swiglu_and_backward_on_the_cpu_interpreter(dtype, shape):
    a = torch.randn(shape, dtype=dtype, requires_grad=True)
    b = torch.randn(shape, dtype=dtype, requires_grad=True)
    c = cutile_cpp.swiglu(a, b)
    tol = TOLERANCE[dtype]
    # the product is taken in the dtype: silu(a) is rounded to it first
    silu = torch.nn.functional.silu(a.detach().double()).to(dtype).double()
    assert c.shape == a.shape and c.dtype == dtype and c.is_contiguous()
    torch.testing.assert_close(c.double(), silu * b.detach().double(), rtol=tol, atol=tol)
    dc = torch.randn(shape, dtype=dtype)
    da, db = torch.autograd.grad(c, (a, b), dc)
    a64, b64 = (t.detach().double().requires_grad_(True) for t in (a, b))
    want_da, want_db = torch.autograd.grad(reference64(a64, b64), (a64, b64), dc.double())
    torch.testing.assert_close(da.double(), want_da, rtol=tol, atol=tol)
    torch.testing.assert_close(db.double(), want_db, rtol=tol, atol=tol)


def test_swiglu_of_non_contiguous_inputs():
    a, b = torch.randn(70, 9).t(), torch.randn(9, 140)[:, ::2]
    torch.testing.assert_close(cutile_cpp.swiglu(a, b), reference64(a, b).float())


def test_swiglu_argument_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp.swiglu: a and b differ in shape: \(4, 4\) and \(4, 3\)"):
        cutile_cpp.swiglu(torch.zeros(4, 4), torch.zeros(4, 3))
    with pytest.raises(TypeError, match=r"cutile_cpp.swiglu: a and b differ in dtype"):
        cutile_cpp.swiglu(torch.zeros(4), torch.zeros(4, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match=r"cutile_cpp.swiglu: b must be a torch.Tensor, got float"):
        cutile_cpp.swiglu(torch.zeros(4), 1.0)


def test_swiglu_abi_errors(abi, status, desc):
    c, a = desc([4, 8], device="CPU"), desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_swiglu(ref(c), ref(a), ref(desc([4, 9], device="CPU", data=0x200000)), 0, None) == (
        status.SHAPE_MISMATCH
    )
    assert last_error(abi).startswith("cutile_cpp_swiglu: ")
    da, db = desc([4, 8], device="CPU"), desc([4, 8], device="CPU", data=0x10008)
    dc, b = desc([4, 8], device="CPU", data=0x200000), desc([4, 8], device="CPU", data=0x300000)
    assert abi.cutile_cpp_swiglu_backward(ref(da), ref(db), ref(dc), ref(a), ref(b), 0, None) == status.ALIASING
    assert last_error(abi).startswith("cutile_cpp_swiglu_backward: ")


@needs_gpu
@pytest.mark.parametrize(
    "batch, seq, hidden",
    [(8, 2048, 4096), (4, 1024, 2048), (2, 512, 1024), (7, 512, 1024), (13, 256, 2048), (8, 100, 1024)]
    + [(8, 333, 512), (8, 256, 1000), (8, 256, 1500), (8, 256, 3000), (7, 100, 1000), (13, 333, 1500)]
    + [(8, 1, 14336), (1, 4, 16384), (1, 2, 20000)],
)
def test_swiglu_forward_matches_torch_at_tilegyms_configs(batch, seq, hidden):
    a = torch.randn(batch, seq, hidden, device="cuda")
    b = torch.randn(batch, seq, hidden, device="cuda")
    poison_cuda_allocator(a.numel() * a.element_size())
    with torch.no_grad():
        c = cutile_cpp.swiglu(a, b)
    torch.testing.assert_close(c, torch.nn.functional.silu(a) * b, rtol=1e-2, atol=1e-2)


@needs_gpu
@pytest.mark.parametrize(
    "batch, seq, hidden, dtype",
    [(4, 512, 1024, torch.float32), (8, 256, 2048, torch.float32), (2, 1024, 512, torch.float32)]
    + [(8, 512, 512, torch.float16), (8, 512, 1024, torch.float16), (4, 256, 1024, torch.bfloat16)]
    + [(7, 256, 512, torch.float32), (8, 333, 256, torch.float32), (4, 256, 1000, torch.float32)]
    + [(4, 128, 3000, torch.float32), (13, 333, 1500, torch.float32), (1, 2, 8192, torch.float32)],
)
def test_swiglu_backward_matches_torch_at_tilegyms_configs(batch, seq, hidden, dtype):
    torch.manual_seed(0)
    a = torch.randn(batch, seq, hidden, dtype=dtype, device="cuda", requires_grad=True)
    b = torch.randn(batch, seq, hidden, dtype=dtype, device="cuda", requires_grad=True)
    a_ref, b_ref = (t.detach().clone().requires_grad_(True) for t in (a, b))
    poison_cuda_allocator(3 * a.numel() * a.element_size())
    out = cutile_cpp.swiglu(a, b)
    out_ref = torch.nn.functional.silu(a_ref) * b_ref
    torch.testing.assert_close(out, out_ref, rtol=1e-2, atol=1e-2)
    grad = torch.randn_like(out)
    out.backward(grad)
    out_ref.backward(grad)
    torch.testing.assert_close(a.grad, a_ref.grad, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(b.grad, b_ref.grad, rtol=1e-2, atol=1e-2)


@needs_gpu
def test_swiglu_backward_under_torch_compile():
    a = torch.randn(64, 300, device="cuda", requires_grad=True)
    b = torch.randn(64, 300, device="cuda", requires_grad=True)
    a_ref, b_ref = (t.detach().clone().requires_grad_(True) for t in (a, b))
    torch.compile(lambda x, y: cutile_cpp.swiglu(x, y).sum(), fullgraph=True)(a, b).backward()
    reference64(a_ref, b_ref).sum().backward()
    torch.testing.assert_close(a.grad, a_ref.grad, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(b.grad, b_ref.grad, rtol=1e-4, atol=1e-5)


def test_swiglu_traces_under_torch_compile_on_the_cpu():
    a = torch.randn(6, 70, requires_grad=True)
    b = torch.randn(6, 70, requires_grad=True)
    a_ref, b_ref = (t.detach().clone().requires_grad_(True) for t in (a, b))
    torch.compile(lambda x, y: cutile_cpp.swiglu(x, y).sum(), backend="aot_eager", fullgraph=True)(a, b).backward()
    reference64(a_ref, b_ref).sum().backward()
    torch.testing.assert_close(a.grad, a_ref.grad, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(b.grad, b_ref.grad, rtol=1e-5, atol=1e-5)
