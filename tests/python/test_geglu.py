"""cutile_cpp.geglu and its backward: CPU-interpreter round trips against float64 references of the
kernels' formulas for every split dimension, autograd, argument and C ABI errors, and TileGym's GPU
configurations and tolerances."""

from __future__ import annotations

import pytest
import torch
from activation_support import FLOATS, TOLERANCE, gelu64, gelu_grad64, poison_cuda_allocator

import cutile_cpp
from support import last_error, needs_gpu, ref


def reference64(x, dim, approximate):
    a, b = x.double().chunk(2, dim)
    return a * gelu64(b, approximate)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape, dim", [((4,), 0), ((16, 6), 0), ((16, 6), 1), ((5, 4, 40), 1), ((3, 7, 2000), -1)])
def test_geglu_and_backward_on_the_cpu_interpreter(approximate, dtype, shape, dim):
    x = torch.randn(shape, dtype=dtype, requires_grad=True)
    y = cutile_cpp.geglu(x, dim, approximate)
    want = reference64(x.detach(), dim, approximate)
    tol = TOLERANCE[dtype]
    assert y.shape == want.shape and y.dtype == dtype and y.is_contiguous()
    torch.testing.assert_close(y.double(), want, rtol=tol, atol=tol)
    dy = torch.randn(want.shape, dtype=dtype)
    (dx,) = torch.autograd.grad(y, x, dy)
    a, b = x.detach().double().chunk(2, dim)
    want_dx = torch.cat([dy.double() * gelu64(b, approximate), dy.double() * a * gelu_grad64(b, approximate)], dim)
    torch.testing.assert_close(dx.double(), want_dx, rtol=tol, atol=tol)


def test_geglu_argument_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp.geglu: input's dimension 1 must have an even size"):
        cutile_cpp.geglu(torch.zeros(4, 3))
    with pytest.raises(ValueError, match=r"cutile_cpp.geglu: dim 2 is out of range for a 2-d input"):
        cutile_cpp.geglu(torch.zeros(4, 4), 2)
    with pytest.raises(ValueError, match=r"cutile_cpp.geglu: approximate must be 'none' or 'tanh'"):
        cutile_cpp.geglu(torch.zeros(4, 4), -1, "exact")


def test_geglu_abi_errors(abi, status, desc):
    x = desc([4, 8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_geglu(ref(desc([4, 5], device="CPU")), ref(x), 0, 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_geglu: y (f32[4, 5] on cpu) must be (M, H) for x (f32[4, 8] on cpu) of (M, 2H): the same rows and "
        "half the columns"
    )
    assert abi.cutile_cpp_geglu(ref(desc([4, 4], device="CPU")), ref(x), 5, 0, None) == status.INVALID_ARGUMENT
    dx, dy = desc([4, 8], device="CPU"), desc([4, 4], device="CPU", data=0x200000)
    assert abi.cutile_cpp_geglu_backward(ref(dx), ref(dy), ref(desc([8], device="CPU", data=0x100000)), 0, 0, None) == (
        status.RANK_MISMATCH
    )


@needs_gpu
@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize(
    "shape, dim",
    [((4,), 0), ((16, 4), 0), ((16, 4), 1), ((64, 16, 4), 0), ((64, 16, 4), 1), ((64, 16, 4), 2)]
    + [((256, 64, 16, 4), d) for d in range(4)]
    + [((256, 64, 16, 128), 3)],
)
def test_geglu_matches_torch_at_tilegyms_configs(approximate, dtype, shape, dim):
    x = torch.rand(shape, dtype=dtype, device="cuda").mul_(1.2).add_(0.6).requires_grad_(True)
    x_ref = x.detach().clone().requires_grad_(True)
    poison_cuda_allocator(3 * x.numel() * x.element_size())
    y = cutile_cpp.geglu(x, dim, approximate)
    a, b = torch.split(x_ref, x_ref.shape[dim] // 2, dim)
    y_ref = a * torch.nn.functional.gelu(b, approximate=approximate)
    torch.testing.assert_close(y, y_ref, rtol=1e-2, atol=1e-2)
    dy = (0.1 * torch.randn(y_ref.shape, device="cuda")).to(dtype)
    y.backward(dy)
    y_ref.backward(dy)
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-2, atol=1e-2)


@needs_gpu
def test_geglu_backward_under_torch_compile():
    x = torch.randn(64, 128, device="cuda", requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.geglu(t, -1, "tanh").sum(), fullgraph=True)(x).backward()
    a, b = x_ref.chunk(2, -1)
    (a * torch.nn.functional.gelu(b, approximate="tanh")).sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-4, atol=1e-5)


def test_geglu_forward_and_backward_trace_under_torch_compile_on_the_cpu():
    x = torch.randn(6, 4, 10, requires_grad=True)
    x_ref = x.detach().clone().requires_grad_(True)
    torch.compile(lambda t: cutile_cpp.geglu(t, 1, "tanh").sum(), backend="aot_eager", fullgraph=True)(x).backward()
    reference64(x_ref, 1, "tanh").sum().backward()
    torch.testing.assert_close(x.grad, x_ref.grad, rtol=1e-5, atol=1e-5)
