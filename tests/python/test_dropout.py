"""dropout and dropout_inplace: their signatures; the mask bit for bit against a NumPy model of TileGym's hash
on the CPU interpreter (every dtype, ragged lengths and shapes, seeds, probabilities, in and out of place),
values against the benchmarks' reference; errors of the library, of Python and of the C ABI; torch.compile;
the forward-only rule; TileGym's dropout (eval mode, in place, any Python int seed); on the GPU, TileGym's
test configurations and exact agreement with TileGym's cutile kernel where cuda.tile runs."""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
import torch

import cutile_cpp
from support import bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
spec = bench_spec("dropout")


def mix_seed(seed: int) -> int:
    mixed = (seed * 2654435761) & 0xFFFFFFFF
    return mixed - (1 << 32) if mixed >= 0x80000000 else mixed


def keep_mask(n: int, seed: int, p: float) -> np.ndarray:
    """TileGym's _dropout_kernel mask for flat indices 0..n-1, in int32 arithmetic."""
    with np.errstate(over="ignore"):
        offsets = np.arange(n, dtype=np.int32)
        h = offsets * np.int32(1103515245) + np.int32(mix_seed(seed))
        h = h ^ (h >> 16)
        h = h ^ (h << 8)
        h = h ^ (h >> 4)
    u = (h & np.int32(0x7FFFFFFF)).astype(np.float32) / np.float32(2147483647.0)
    return u > np.float32(p)


def check_dropout(y: torch.Tensor, x: torch.Tensor, seed: int, p: float) -> None:
    """y keeps exactly TileGym's mask (zero elsewhere) and its kept values are x / (1 - p), to the rounding of the
    dtype's scale."""
    kept = torch.from_numpy(keep_mask(x.numel(), seed, p)).view(x.shape)
    assert torch.equal(y != 0, kept)
    tol = {torch.float32: 1e-6, torch.float16: 1e-3, torch.bfloat16: 8e-3}[x.dtype]
    torch.testing.assert_close(y.double(), spec.reference(x.double(), p, kept), rtol=tol, atol=0)


def test_signatures():
    assert str(inspect.signature(cutile_cpp.dropout)) == "(x, seed, p=0.5, *, y=None)"
    assert str(inspect.signature(cutile_cpp.dropout_inplace)) == "(x, seed, p=0.5)"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (1000,), (1024,), (3, 700)])
@pytest.mark.parametrize("seed, p", [(0, 0.5), (11, 0.2), (2**40 + 3, 0.8), (-5, 0.5), (99, 0.0), (99, 1.0)])
def test_mask_matches_tilegyms_hash_on_the_cpu_interpreter(dtype, shape, seed, p):
    x = (torch.rand(shape) * 4 + 0.01).to(dtype)
    y = cutile_cpp.dropout(x, seed, p)
    assert y.dtype == dtype and y.shape == x.shape and y.is_contiguous()
    check_dropout(y, x, seed, p)
    z = x.clone()
    out = cutile_cpp.dropout_inplace(z, seed, p)
    assert out.data_ptr() == z.data_ptr() and out.shape == z.shape
    assert torch.equal(z, y)


def test_zero_ratio_is_near_p_and_seeds_differ():
    x = torch.rand(1 << 14) + 1e-5
    for p in (0.2, 0.5, 0.8):
        y = cutile_cpp.dropout(x, 7, p)
        assert abs((y == 0).double().mean().item() - p) < 0.04
    assert not torch.equal(cutile_cpp.dropout(x, 11) == 0, cutile_cpp.dropout(x, 99) == 0)


def test_strided_input_and_given_output():
    x = torch.rand(6, 40).t()  # not contiguous: dropped by the flat index of its logical order
    y = torch.full((40, 6), float("nan"))
    out = cutile_cpp.dropout(x, 3, 0.5, y=y)
    assert out.data_ptr() == y.data_ptr() and out.shape == y.shape
    assert torch.equal(y, cutile_cpp.dropout(x.contiguous(), 3, 0.5))


def test_under_torch_compile():
    x = torch.rand(3, 500) + 1e-5
    compiled = torch.compile(lambda t: cutile_cpp.dropout(t, 5, 0.3) * 2.0, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(x), cutile_cpp.dropout(x, 5, 0.3) * 2.0, rtol=0, atol=0)

    def in_place(t):
        cutile_cpp.dropout_inplace(t, 5, 0.3)
        return t + 1.0

    z = x.clone()
    out = torch.compile(in_place, backend="aot_eager", fullgraph=True)(z)
    torch.testing.assert_close(z, cutile_cpp.dropout(x, 5, 0.3), rtol=0, atol=0)
    torch.testing.assert_close(out, z + 1.0, rtol=0, atol=0)


def test_inputs_requiring_grad_are_detached_with_a_warning():
    x = torch.rand(8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.dropout is forward-only"):
        y = cutile_cpp.dropout(x, 3, 0.5)
    assert not y.requires_grad


def test_argument_checks():
    with pytest.raises(TypeError, match=r"cutile_cpp.dropout: x must be a torch.Tensor, got list"):
        cutile_cpp.dropout([1.0], 1)
    with pytest.raises(
        cutile_cpp.CutileCppTypeError,
        match=r"cutile_cpp_dropout: x \(i32\[4\] on cpu\): the op supports f32, f16, bf16",
    ):
        cutile_cpp.dropout(torch.zeros(4, dtype=torch.int32), 1)
    with pytest.raises(TypeError, match=r"cutile_cpp.dropout: seed must be an integer, got float"):
        cutile_cpp.dropout(torch.rand(4), 1.5)
    for p in (float("nan"), float("inf"), -0.1, 1.5):
        with pytest.raises(
            cutile_cpp.CutileCppValueError,
            match=r"cutile_cpp_dropout: p is .*; it must satisfy finite\(p\) && p >= 0 && p <= 1",
        ):
            cutile_cpp.dropout(torch.rand(4), 1, p)
    with pytest.raises(
        ValueError,
        match=r"cutile_cpp.dropout_inplace: x \(shape \(6, 4\), strides \(1, 6\)\) is updated in place, so it must",
    ):
        cutile_cpp.dropout_inplace(torch.rand(4, 6).t(), 1)
    with pytest.raises(cutile_cpp.CutileCppValueError, match=r"cutile_cpp_dropout: output y .* overlaps x"):
        x = torch.rand(8)
        cutile_cpp.dropout(x, 1, y=x)
    with pytest.raises(
        cutile_cpp.CutileCppValueError, match=r"cutile_cpp_dropout: y \(f32\[7\] on cpu\): dim 0 must be N = 8"
    ):
        cutile_cpp.dropout(torch.rand(8), 1, y=torch.empty(7))


def test_abi_statuses(abi, status, desc):
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8], data=0x100000)), 1, float("nan"), 0, None) == (
        status.INVALID_ARGUMENT
    )
    assert last_error(abi) == "cutile_cpp_dropout: p is nan; it must satisfy finite(p) && p >= 0 && p <= 1"
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([2, 4], data=0x100000)), 1, 0.5, 0, None) == (
        status.RANK_MISMATCH
    )
    assert last_error(abi) == "cutile_cpp_dropout: x (f32[2, 4] on cuda:0): expected 1 dims (E[N]), got 2"
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8], dtype="F16", data=0x100000)), 1, 0.5, 0, None) == (
        status.DTYPE_MISMATCH
    )
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8])), 1, 0.5, 0, None) == status.ALIASING
    assert abi.cutile_cpp_dropout(None, ref(desc([8])), 1, 0.5, 0, None) == status.NULL_POINTER
    assert abi.cutile_cpp_dropout_inplace(ref(desc([8], "I32")), 1, 0.5, 0, None) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_dropout_inplace: x (i32[8] on cuda:0): the op supports f32, f16, bf16"
    assert abi.cutile_cpp_dropout_inplace(ref(desc([8], strides=[0])), 1, 0.5, 0, None) == status.ALIASING


# ---- TileGym's dropout


def parameters(function):
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_tilegym_registration_has_cutiles_signature(tilegym):
    from tilegym.backend import dispatcher

    ours = dispatcher._REGISTRY["dropout"]["cutile-cpp"]
    assert ours.__module__ == "cutile_cpp.tilegym.dropout"
    if not dispatcher.has_backend_impl("dropout", "cutile"):
        pytest.skip("TileGym's cutile backend is not importable here (cuda.tile missing)")
    assert parameters(ours) == parameters(dispatcher._REGISTRY["dropout"]["cutile"])


def test_tilegym_dropout_runs_our_kernel(tilegym):
    x = torch.rand(3, 700) + 1e-5
    seed = 2**64 - 3  # torch.random.initial_seed() may be any 64-bit value; the mask reads it modulo 2^32
    y = tilegym.ops.dropout(x, seed, 0.4, backend="cutile-cpp")
    assert y is not x and y.stride() == x.stride()
    check_dropout(y, x, seed, 0.4)
    assert tilegym.ops.dropout(x, seed, 0.4, training=False, backend="cutile-cpp") is x
    z = x.clone()
    assert tilegym.ops.dropout(z, seed, 0.4, inplace=True, backend="cutile-cpp") is z
    assert torch.equal(z, y)


# ---- GPU: TileGym's tests/ops/test_dropout.py configurations (eps 1e-5 keeps every input nonzero), plus bf16

GPU_CASES = [
    (2**10, 0.2, torch.float32),
    (2**12, 0.4, torch.float32),
    (2**16, 0.8, torch.float32),
    (2**16, 0.8, torch.float16),
    (2**16, 0.5, torch.bfloat16),
]


@needs_gpu
@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("m, p, dtype", GPU_CASES)
def test_tilegym_configurations_on_the_gpu(tilegym, m, p, dtype, training, inplace):
    seed = torch.random.initial_seed()
    x = torch.rand(m, device="cuda", dtype=dtype) + 1e-5
    x_clone = x.clone()
    res = tilegym.ops.dropout(x, seed, p, training, inplace, backend="cutile-cpp")
    if (not training) or inplace:
        assert res is x
    if training:
        zero_ratio = 1 - torch.count_nonzero(res).item() / res.numel()
        assert p - 0.04 < zero_ratio < p + 0.04, zero_ratio
        check_dropout(res.cpu(), x_clone.cpu(), seed, p)
    else:
        torch.testing.assert_close(x, x_clone, rtol=0, atol=0)


@needs_gpu
def test_every_element_is_written_on_the_gpu():
    x = torch.rand(3 * 1024 + 17, device="cuda") + 1e-5
    y = torch.full_like(x, float("nan"))  # poisoned: an element the kernel misses stays NaN
    cutile_cpp.dropout(x, 123, 0.5, y=y)
    assert not y.isnan().any()
    check_dropout(y.cpu(), x.cpu(), 123, 0.5)


@needs_gpu
@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("m, p, dtype", GPU_CASES)
def test_identical_to_tilegyms_cutile_kernel(tilegym, m, p, dtype, inplace):
    pytest.importorskip("cuda.tile", reason="TileGym's cutile backend needs cuda.tile")
    # The module itself: tilegym.ops.cutile re-exports its function under the module's name.
    theirs = importlib.import_module("tilegym.ops.cutile.dropout")

    x = torch.rand(m, device="cuda", dtype=dtype) + 1e-5
    for seed in (0, 11, 99, torch.random.initial_seed()):
        want = theirs.dropout(x.clone(), seed, p, True, inplace)
        got = tilegym.ops.dropout(x.clone(), seed, p, True, inplace, backend="cutile-cpp")
        torch.testing.assert_close(got, want, rtol=0, atol=0)
