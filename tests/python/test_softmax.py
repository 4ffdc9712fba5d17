"""softmax: each of TileGym's four kernels on the CPU interpreter against float64 torch, the kernel the
flags pick, the C ABI's kernel argument; on the GPU, TileGym's test configurations and tolerances for
every kernel, and bit-for-bit agreement with TileGym's cutile kernels where cuda.tile runs."""

from __future__ import annotations

import importlib

import pytest
import torch

import cutile_cpp
import cutile_cpp._ops.softmax as softmax_module
from cutile_cpp import _tensor
from support import GPU_COUNT, last_error, needs_gpu, ref

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
    return torch.softmax(x.double(), dim=-1)


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


@pytest.mark.parametrize(
    "flags, kernel",
    [
        ({}, 0),
        ({"use_multi_wave": True}, 1),
        ({"use_tma": True}, 2),
        ({"use_chunked": True}, 3),
        ({"use_tma": True, "use_multi_wave": True}, 1),
        ({"use_chunked": True, "use_multi_wave": True}, 1),
    ],
)
def test_flags_pick_tilegyms_kernel(monkeypatch, flags, kernel):
    picked = []
    real = softmax_module._softmax
    monkeypatch.setattr(softmax_module, "_softmax", lambda x, k: picked.append(k) or real(x, k))
    cutile_cpp.softmax(torch.rand(3, 5), **flags)
    assert picked == [kernel]


def test_tma_and_chunked_together_are_refused():
    with pytest.raises(ValueError, match="cutile_cpp.softmax: use_tma and use_chunked cannot both be set"):
        cutile_cpp.softmax(torch.rand(3, 5), True, use_chunked=True)


def test_abi_refuses_an_unknown_kernel(abi, status, desc):
    for kernel in (-1, 4):
        assert abi.cutile_cpp_softmax_variant(ref(desc([4, 8])), ref(desc([4, 8], data=0x100000)), kernel, 0, None) == (
            status.INVALID_ARGUMENT
        )
        assert last_error(abi) == (
            f"cutile_cpp_softmax_variant: kernel is {kernel}; expected a cutile_cpp_softmax_kernel (0 to 3)"
        )


def test_abi_kernel_enum_matches_the_python_codes(abi):
    assert abi.enums["cutile_cpp_softmax_kernel"] == {
        "CUTILE_CPP_SOFTMAX_GATHER": softmax_module._GATHER,
        "CUTILE_CPP_SOFTMAX_MULTI_WAVE": softmax_module._MULTI_WAVE,
        "CUTILE_CPP_SOFTMAX_TMA": softmax_module._TMA,
        "CUTILE_CPP_SOFTMAX_CHUNKED": softmax_module._CHUNKED,
    }


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
    kernel = softmax_module._kernel(
        flags.get("use_tma", False), flags.get("use_chunked", False), flags.get("use_multi_wave", False)
    )
    _tensor.call("cutile_cpp_softmax_variant", [y, x], ["y", "x"], (kernel,))
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
