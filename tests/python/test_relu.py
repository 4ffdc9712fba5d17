"""relu: the generated function's signature, CPU-interpreter round trips against the reference (any shape,
strided inputs, a given output), argument errors and the C ABI's statuses, the forward-only rule,
torch.compile, the TileGym registration; on a GPU, TileGym's test configurations with a poisoned output."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppTypeError, CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
reference = bench_spec("relu").reference


def test_signature():
    assert str(inspect.signature(cutile_cpp.relu)) == "(x, *, y=None)"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (5, 9), (3, 100, 7), (2049,)])
def test_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    y = cutile_cpp.relu(x)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    torch.testing.assert_close(y, reference(x), rtol=0, atol=0)


def test_strided_inputs_give_contiguous_results():
    for x in (torch.randn(40, 30).t(), torch.randn(300)[::3]):
        y = cutile_cpp.relu(x)
        assert y.is_contiguous()
        torch.testing.assert_close(y, reference(x), rtol=0, atol=0)


def test_a_given_output():
    x = torch.randn(4, 33)
    y = torch.full((4, 33), float("nan"))
    result = cutile_cpp.relu(x, y=y)  # y itself, seen in x's shape
    assert result.data_ptr() == y.data_ptr() and result.shape == y.shape
    torch.testing.assert_close(y, reference(x), rtol=0, atol=0)


def test_argument_errors():
    with pytest.raises(TypeError, match=r"cutile_cpp.relu: x must be a torch.Tensor, got list"):
        cutile_cpp.relu([1.0])
    with pytest.raises(TypeError, match=r"cutile_cpp.relu: x has dtype torch.float64, which no op takes"):
        cutile_cpp.relu(torch.zeros(3, dtype=torch.float64))
    with pytest.raises(
        CutileCppTypeError, match=r"cutile_cpp_relu: x \(i32\[3\] on cpu\): the op supports f32, f16, bf16"
    ):
        cutile_cpp.relu(torch.zeros(3, dtype=torch.int32))
    with pytest.raises(ValueError, match=r"cutile_cpp.relu: x is on meta; the ops take CUDA or CPU tensors"):
        cutile_cpp.relu(torch.zeros(3, device="meta"))
    with pytest.raises(
        CutileCppValueError, match=r"cutile_cpp_relu: y \(f32\[7\] on cpu\): dim 0 must be N = 8"
    ):
        cutile_cpp.relu(torch.zeros(8), y=torch.zeros(7))
    x = torch.zeros(8)
    with pytest.raises(CutileCppValueError, match=r"cutile_cpp_relu: output y .* overlaps x"):
        cutile_cpp.relu(x, y=x)


def test_abi_statuses(abi, status, desc):
    y, x = desc([8], device="CPU"), desc([8], device="CPU", data=0x100000)
    assert abi.cutile_cpp_relu(ref(y), ref(desc([9], device="CPU", data=0x100000)), 0, None) == status.SHAPE_MISMATCH
    assert last_error(abi) == "cutile_cpp_relu: y (f32[8] on cpu): dim 0 must be N = 9 (N from x's dim 0), got 8"
    assert abi.cutile_cpp_relu(ref(desc([2, 4], device="CPU")), ref(x), 0, None) == status.RANK_MISMATCH
    assert last_error(abi) == "cutile_cpp_relu: y (f32[2, 4] on cpu): expected 1 dims (E[N]), got 2"
    assert abi.cutile_cpp_relu(ref(y), ref(desc([8], "F16", "CPU", data=0x100000)), 0, None) == status.DTYPE_MISMATCH
    assert abi.cutile_cpp_relu(ref(desc([8], "I32", "CPU")), ref(desc([8], "I32", "CPU", 0, 0x100000)), 0, None) == (
        status.UNSUPPORTED_DTYPE
    )
    assert abi.cutile_cpp_relu(ref(y), ref(desc([8], device="CPU", data=0x10010)), 0, None) == status.ALIASING
    assert abi.cutile_cpp_relu(ref(y), None, 0, None) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_relu: x: the descriptor is null"


def test_is_forward_only():
    x = torch.randn(8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.relu is forward-only: its inputs are detached"):
        y = cutile_cpp.relu(x)
    assert not y.requires_grad


def test_traces_under_torch_compile_on_the_cpu():
    x = torch.randn(5, 33)
    y = torch.compile(cutile_cpp.relu, backend="aot_eager", fullgraph=True)(x)
    torch.testing.assert_close(y, reference(x), rtol=0, atol=0)


def test_tilegym_registration(monkeypatch):
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops.activation
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    ours = dispatcher._REGISTRY["relu"]["cutile-cpp"]
    if dispatcher.has_backend_impl("relu", "cutile"):
        assert parameters(ours) == parameters(dispatcher._REGISTRY["relu"]["cutile"])
    calls = launched_ops(monkeypatch)
    x = torch.randn(6, 40, device="cuda" if torch.cuda.is_available() else "cpu")
    torch.testing.assert_close(tilegym.ops.activation.relu(x, backend="cutile-cpp"), reference(x), rtol=0, atol=0)
    assert calls == ["relu"]


# ---- GPU: TileGym's tests/ops/activation/test_relu.py configurations and tolerance


@needs_gpu
@pytest.mark.parametrize(
    "m, n, dtype",
    [(256, 64, torch.float16), (256, 256, torch.float16), (256, 2048, torch.float32), (256, 1024 * 32, torch.float16)],
)
def test_gpu_matches_torch_at_tilegyms_configs(m, n, dtype):
    x = torch.rand(m, n, device="cuda", dtype=dtype) - 0.5
    y = torch.full_like(x, float("nan"))  # poisoned: an element the kernel misses stays NaN
    cutile_cpp.relu(x, y=y)
    torch.testing.assert_close(y, reference(x), rtol=1e-5, atol=1e-8)
    torch.testing.assert_close(cutile_cpp.relu(x), reference(x), rtol=1e-5, atol=1e-8)


@needs_gpu
def test_gpu_compiles_without_graph_breaks():
    x = torch.randn(300, 7, device="cuda")
    torch.testing.assert_close(torch.compile(cutile_cpp.relu, fullgraph=True)(x), reference(x))
