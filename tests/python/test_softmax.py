"""softmax: each of TileGym's four kernels on the CPU interpreter against the float64 reference, the flags'
checks in Python and the C ABI, given outputs; on the GPU, TileGym's test configurations and tolerances for
every kernel, and agreement with TileGym's cutile kernels where cuda.tile runs. (Which kernel the flags
pick is the launcher's, tested in C++: tests/ir/op_launch_test.cpp.)"""

from __future__ import annotations

import importlib

import pytest
import torch

import cutile_cpp
from support import bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# TileGym's flags of tests/ops/test_softmax.py, by kernel.
FLAGS = {
    "baseline": {},
    "use_tma": {"use_tma": True},
    "use_chunked": {"use_chunked": True},
    "use_multi_wave": {"use_multi_wave": True},
}


def reference(x: torch.Tensor) -> torch.Tensor:
    return bench_spec("softmax").reference(x.double())


@pytest.mark.parametrize("flags", FLAGS.values(), ids=FLAGS.keys())
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (5, 9), (3, 100), (4, 128)])
def test_every_kernel_on_the_cpu_interpreter(flags, dtype, shape):
    x = (torch.rand(shape) * 12 - 6).to(dtype)
    y = cutile_cpp.softmax(x, **flags)
    assert y.dtype == dtype and y.stride() == torch.empty_like(x).stride()
    torch.testing.assert_close(y.double(), reference(x), atol=1e-6, rtol=TOLERANCE[dtype])


def test_rows_of_several_chunks_on_the_cpu_interpreter():
    # 8192-column chunks: 20000 columns are three chunks, the last ragged; every kernel takes the
    # chunked path past 16384 columns.
    x = torch.rand(2, 20000) * 12 - 6
    for flags in FLAGS.values():
        torch.testing.assert_close(cutile_cpp.softmax(x, **flags).double(), reference(x), atol=1e-7, rtol=2e-5)


def test_a_transposed_input_on_the_cpu_interpreter():
    x = (torch.rand(9, 6) * 8 - 4).t()
    for flags in FLAGS.values():
        y = cutile_cpp.softmax(x, **flags)
        assert y.stride() == torch.empty_like(x).stride()
        torch.testing.assert_close(y.double(), reference(x), atol=1e-7, rtol=2e-5)


def test_tma_and_chunked_together_are_refused():
    with pytest.raises(ValueError, match=r"cutile_cpp_softmax: use_chunked is 1; it must satisfy !\(use_tma && use_chunked\)"):
        cutile_cpp.softmax(torch.rand(3, 5), True, use_chunked=True)


def test_abi_refuses_a_flag_that_is_neither_0_nor_1(abi, status, desc):
    for value in (-1, 2):
        x, y = desc([4, 8], data=0x100000), desc([4, 8])
        assert abi.cutile_cpp_softmax(ref(y), ref(x), value, 0, 0, 0, None) == status.INVALID_ARGUMENT
        assert last_error(abi) == f"cutile_cpp_softmax: use_tma is {value}; a flag is 0 or 1"


def test_an_output_can_be_given():
    x = torch.rand(4, 33)
    y = torch.empty(4, 33)
    assert cutile_cpp.softmax(x, y=y) is y
    torch.testing.assert_close(y.double(), reference(x), atol=1e-7, rtol=2e-5)


# TileGym's tests/ops/test_softmax.py configurations and tolerances, plus bf16 and a 16384-column case.
GPU_CASES = [
    (256, 256, torch.float32),
    (256, 2048, torch.float32),
    (256, 1024 * 32, torch.float32),
    (256, 256, torch.float16),
    (256, 2048, torch.float16),
    (256, 9, torch.float32),
    (256, 1009, torch.float16),
    (256, 1009, torch.bfloat16),
    (3, 16384, torch.bfloat16),
]
GPU_TOLERANCE = {torch.float32: (1e-5, 1e-7), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}


@needs_gpu
@pytest.mark.parametrize("flags", FLAGS.values(), ids=FLAGS.keys())
@pytest.mark.parametrize("m, n, dtype", GPU_CASES)
def test_every_kernel_matches_torch_on_the_gpu(flags, m, n, dtype):
    x = torch.rand(m, n, device="cuda", dtype=dtype)
    y = cutile_cpp.softmax(x, **flags)
    rtol, atol = GPU_TOLERANCE[dtype]
    torch.testing.assert_close(y, torch.nn.functional.softmax(x, dim=-1), rtol=rtol, atol=atol)


@needs_gpu
@pytest.mark.parametrize("flags", FLAGS.values(), ids=FLAGS.keys())
@pytest.mark.parametrize("m, n", [(300, 777), (5, 20000)])
def test_the_output_is_written_everywhere_on_the_gpu(flags, m, n):
    x = torch.rand(m, n, device="cuda", dtype=torch.bfloat16)
    y = torch.full_like(x, float("nan"))  # poisoned: an element the kernel misses stays NaN
    cutile_cpp.softmax(x, y=y, **flags)
    assert not y.isnan().any()
    torch.testing.assert_close(y, torch.softmax(x.float(), -1).bfloat16(), rtol=1.6e-2, atol=1e-5)


@needs_gpu
@pytest.mark.parametrize("flags", FLAGS.values(), ids=FLAGS.keys())
@pytest.mark.parametrize(
    "m, n, dtype", [(256, 256, torch.float32), (256, 1009, torch.float16), (64, 20000, torch.float32)]
)
def test_agrees_with_tilegyms_cutile_kernels(flags, m, n, dtype):
    pytest.importorskip("cuda.tile", reason="TileGym's cutile backend needs cuda.tile")
    # The module itself: tilegym.ops.cutile re-exports its function under the module's name.
    theirs = importlib.import_module("tilegym.ops.cutile.softmax")

    x = torch.rand(m, n, device="cuda", dtype=dtype)
    expected = theirs.softmax(x, **flags)
    rtol, atol = GPU_TOLERANCE[dtype]
    torch.testing.assert_close(cutile_cpp.softmax(x, **flags), expected, rtol=rtol, atol=atol)
