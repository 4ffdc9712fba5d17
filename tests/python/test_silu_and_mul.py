"""cutile_cpp.silu_and_mul and its backward: CPU-interpreter round trips against float64, the `out`
argument, autograd, argument and C ABI errors, and TileGym's GPU configurations and tolerances."""

from __future__ import annotations

import pytest
import torch
from activation_support import FLOATS, TOLERANCE, gpu_rtol, poison_cuda_allocator

import cutile_cpp
from support import last_error, needs_gpu, ref


def reference64(x):
    a, b = x.double().chunk(2, -1)
    return torch.nn.functional.silu(a) * b


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 2), (5, 200), (2, 3, 130), (3, 600)])
def test_silu_and_mul_and_backward_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype, requires_grad=True)
    y = cutile_cpp.silu_and_mul(x)
    tol = TOLERANCE[dtype]
    want = reference64(x.detach())
    assert y.shape == want.shape and y.dtype == dtype and y.is_contiguous()
    torch.testing.assert_close(y.double(), want, rtol=tol, atol=tol)
    dy = torch.randn(want.shape, dtype=dtype)
    (dx,) = torch.autograd.grad(y, x, dy)
    x64 = x.detach().double().requires_grad_(True)
    (want_dx,) = torch.autograd.grad(reference64(x64), x64, dy.double())
    torch.testing.assert_close(dx.double(), want_dx, rtol=tol, atol=tol)


def test_silu_and_mul_into_out():
    x = torch.randn(4, 3, 64)
    out = torch.full((4, 3, 32), float("nan"))
    result = cutile_cpp.silu_and_mul(x, out)
    assert result is out
    torch.testing.assert_close(out, reference64(x).float())


def test_silu_and_mul_of_a_non_contiguous_input():
    x = torch.randn(64, 10).t()  # (10, 64)
    torch.testing.assert_close(cutile_cpp.silu_and_mul(x), reference64(x).float())


def test_silu_and_mul_argument_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp.silu_and_mul: input's last dimension must have an even size"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 5))
    with pytest.raises(ValueError, match=r"cutile_cpp.silu_and_mul: out has shape \(4, 3\); expected \(4, 2\)"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), torch.zeros(4, 3))
    with pytest.raises(TypeError, match=r"cutile_cpp.silu_and_mul: out has dtype torch.float16; input has"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), torch.zeros(4, 2, dtype=torch.float16))
    with pytest.raises(ValueError, match=r"cutile_cpp.silu_and_mul: out must be contiguous"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4), torch.zeros(2, 4).t())
    with pytest.raises(ValueError, match=r"cutile_cpp.silu_and_mul: out is not supported when input requires grad"):
        cutile_cpp.silu_and_mul(torch.zeros(4, 4, requires_grad=True), torch.zeros(4, 2))


def test_silu_and_mul_abi_errors(abi, status, desc):
    x = desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_silu_and_mul(ref(desc([3, 4], device="CPU")), ref(x), 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi).startswith("cutile_cpp_silu_and_mul: y (f32[3, 4]")
    dx, dy = desc([4, 8], device="CPU"), desc([4, 4], device="CPU", data=0x200000)
    backward = abi.cutile_cpp_silu_and_mul_backward
    assert backward(ref(dx), ref(dy), ref(desc([4, 8], "BF16", "CPU", 0, 0x100000)), 0, None) == status.DTYPE_MISMATCH
    assert backward(ref(dx), ref(dy), ref(desc([4, 6], device="CPU", data=0x100000)), 0, None) == status.SHAPE_MISMATCH


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
def test_silu_and_mul_matches_torch_at_tilegyms_configs(batch, seq, hidden, dtype):
    torch.manual_seed(0)
    x = torch.randn(batch, seq, 2 * hidden, dtype=dtype, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    poison_cuda_allocator(2 * x.numel() * x.element_size())
    y = cutile_cpp.silu_and_mul(x)
    a, b = x_ref[..., :hidden], x_ref[..., hidden:]
    y_ref = torch.nn.functional.silu(a) * b
    # TileGym's rtol 0, atol 1e-2; bf16 (not in TileGym's list) also allows its one-ulp rounding differences.
    rtol = gpu_rtol(dtype, 0.0)
    torch.testing.assert_close(y, y_ref, rtol=rtol, atol=1e-2)
    dy = 0.1 * torch.randn(batch, seq, hidden, dtype=dtype, device="cuda")
    y.backward(dy)
    y_ref.backward(dy)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=rtol, atol=1e-2)


@needs_gpu
def test_silu_and_mul_into_out_on_the_gpu():
    x = torch.randn(64, 1024, 2 * 512, device="cuda", dtype=torch.float16)
    out = torch.full((64, 1024, 512), float("nan"), device="cuda", dtype=torch.float16)
    assert cutile_cpp.silu_and_mul(x, out) is out
    torch.testing.assert_close(out, reference64(x).half(), rtol=0.0, atol=1e-2)


@needs_gpu
def test_silu_and_mul_backward_under_torch_compile():
    x = torch.randn(64, 256, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.silu_and_mul(t).sum(), fullgraph=True)(x).backward()
    reference64(x_ref).sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)


def test_silu_and_mul_traces_under_torch_compile_on_the_cpu():
    x = torch.randn(6, 40, requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.silu_and_mul(t).sum(), backend="aot_eager", fullgraph=True)(x).backward()
    reference64(x_ref).sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        out = torch.empty(6, 20)
        torch.compile(lambda t, o: cutile_cpp.silu_and_mul(t, o), backend="aot_eager", fullgraph=True)(x, out)
    torch.testing.assert_close(out, reference64(x.detach()).float())
