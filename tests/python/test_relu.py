"""cutile_cpp.relu: CPU-interpreter round trips against float64, argument and C ABI errors, the
forward-only rule, and TileGym's GPU configurations."""

from __future__ import annotations

import pytest
import torch
from activation_support import FLOATS, poison_cuda_allocator

import cutile_cpp
from support import last_error, needs_gpu, ref


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (5, 9), (3, 100, 7), (2049,)])
def test_relu_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    y = cutile_cpp.relu(x)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    torch.testing.assert_close(y, torch.relu(x.double()).to(dtype), rtol=0, atol=0)


def test_relu_of_a_non_contiguous_input_is_contiguous():
    x = torch.randn(40, 30).t()
    y = cutile_cpp.relu(x)
    assert y.is_contiguous()
    torch.testing.assert_close(y, torch.relu(x))


def test_relu_argument_checks():
    with pytest.raises(TypeError, match=r"cutile_cpp.relu: x must be a torch.Tensor, got list"):
        cutile_cpp.relu([1.0])
    with pytest.raises(TypeError, match=r"cutile_cpp.relu: x has dtype torch.int32; supported: float32"):
        cutile_cpp.relu(torch.zeros(3, dtype=torch.int32))
    with pytest.raises(ValueError, match=r"cutile_cpp.relu: x is on meta"):
        cutile_cpp.relu(torch.zeros(3, device="meta"))


def test_relu_is_forward_only():
    x = torch.randn(8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.relu is forward-only"):
        y = cutile_cpp.relu(x)
    assert not y.requires_grad


def test_relu_abi_errors(abi, status, desc):
    y, x = desc([8], device="CPU"), desc([8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_relu(ref(y), ref(desc([9], device="CPU", data=0x100000)), 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi).startswith("cutile_cpp_relu: ")
    assert abi.cutile_cpp_relu(ref(desc([2, 4], device="CPU")), ref(x), 0, None) == status.RANK_MISMATCH
    assert "y" in last_error(abi)
    assert abi.cutile_cpp_relu(ref(y), ref(desc([8], "F16", "CPU", data=0x100000)), 0, None) == status.DTYPE_MISMATCH
    assert abi.cutile_cpp_relu(ref(desc([8], "I32", "CPU")), ref(desc([8], "I32", "CPU", 0, 0x100000)), 0, None) == (
        status.UNSUPPORTED_DTYPE
    )
    assert abi.cutile_cpp_relu(ref(y), ref(desc([8], device="CPU", data=0x10010)), 0, None) == status.ALIASING


@needs_gpu
@pytest.mark.parametrize(
    "m, n, dtype",
    [(256, 64, torch.float16), (256, 256, torch.float16), (256, 2048, torch.float32), (256, 1024 * 32, torch.float16)],
)
def test_relu_matches_torch_at_tilegyms_configs(m, n, dtype):
    x = torch.rand(m, n, device="cuda", dtype=dtype) - 0.5
    poison_cuda_allocator(x.numel() * x.element_size())
    y = cutile_cpp.relu(x)
    torch.testing.assert_close(y, torch.relu(x), rtol=1e-5, atol=1e-8)


@needs_gpu
def test_relu_compiles_without_graph_breaks():
    x = torch.randn(300, 7, device="cuda")
    y = torch.compile(cutile_cpp.relu, fullgraph=True)(x)
    torch.testing.assert_close(y, torch.relu(x))


def test_relu_traces_under_torch_compile_on_the_cpu():
    x = torch.randn(5, 33)
    y = torch.compile(cutile_cpp.relu, backend="aot_eager", fullgraph=True)(x)
    torch.testing.assert_close(y, torch.relu(x))
