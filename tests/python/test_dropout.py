"""dropout: the mask bit for bit against a NumPy model of TileGym's hash on the CPU interpreter (every
dtype, ragged lengths, seeds, probabilities, in and out of place); TileGym's return-the-same-object rules;
argument and ABI errors; on the GPU, TileGym's test configurations and exact agreement with TileGym's
cutile kernel where cuda.tile runs."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch

import cutile_cpp
from cutile_cpp import _tensor
from support import last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]


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


def expected(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    keep = torch.from_numpy(keep_mask(x.numel(), seed, p)).view(x.shape)
    scale = torch.tensor(0.0 if p >= 1 else 1.0 / (1.0 - p), dtype=torch.float64).to(x.dtype)
    return torch.where(keep, x * scale, torch.zeros((), dtype=x.dtype))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1,), (1000,), (1024,), (3, 700)])
@pytest.mark.parametrize("seed, p", [(0, 0.5), (11, 0.2), (2**40 + 3, 0.8), (-5, 0.5), (99, 0.0), (99, 1.0)])
def test_mask_matches_tilegyms_hash_on_the_cpu_interpreter(dtype, shape, seed, p):
    x = (torch.rand(shape) * 4 + 0.01).to(dtype)
    want = expected(x, seed, p)
    y = cutile_cpp.dropout(x, seed, p)
    assert y is not x and y.dtype == dtype and y.shape == x.shape
    assert torch.equal(y, want)
    z = x.clone()
    assert cutile_cpp.dropout(z, seed, p, inplace=True) is z
    assert torch.equal(z, want)


def test_zero_ratio_is_near_p_and_seeds_differ():
    x = torch.rand(1 << 14) + 1e-5
    for p in (0.2, 0.5, 0.8):
        y = cutile_cpp.dropout(x, 7, p)
        assert abs((y == 0).double().mean().item() - p) < 0.04
    assert not torch.equal(cutile_cpp.dropout(x, 11, 0.5) == 0, cutile_cpp.dropout(x, 99, 0.5) == 0)


def test_eval_mode_returns_x_itself():
    x = torch.rand(10)
    assert cutile_cpp.dropout(x, 1, 0.5, training=False) is x
    assert cutile_cpp.dropout(x, 1, 0.5, training=False, inplace=True) is x


def test_argument_checks():
    with pytest.raises(TypeError, match=r"cutile_cpp.dropout: x must be a torch.Tensor, got list"):
        cutile_cpp.dropout([1.0], 1)
    with pytest.raises(TypeError, match=r"cutile_cpp.dropout: x has dtype torch.int32"):
        cutile_cpp.dropout(torch.zeros(4, dtype=torch.int32), 1)
    with pytest.raises(TypeError, match=r"cutile_cpp.dropout: seed must be an int, got float"):
        cutile_cpp.dropout(torch.rand(4), 1.5)
    with pytest.raises(ValueError, match=r"cutile_cpp.dropout: p is nan"):
        cutile_cpp.dropout(torch.rand(4), 1, float("nan"))
    with pytest.raises(ValueError, match=r"cutile_cpp.dropout: x must be contiguous"):
        cutile_cpp.dropout(torch.rand(4, 6).t(), 1)


def test_inputs_requiring_grad_are_detached_with_a_warning():
    x = torch.rand(8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.dropout is forward-only"):
        y = cutile_cpp.dropout(x, 3, 0.5)
    assert not y.requires_grad


def test_abi_errors(abi, status, desc):
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8], data=0x100000)), float("nan"), 1, 0, None) == (
        status.INVALID_ARGUMENT
    )
    assert last_error(abi) == "cutile_cpp_dropout: p is nan; expected a probability"
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([2, 4], data=0x100000)), 0.5, 1, 0, None) == (
        status.RANK_MISMATCH
    )
    assert last_error(abi) == "cutile_cpp_dropout: x (f32[2, 4] on cuda:0): expected 1 dims, got 2"
    assert abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8])), 0.5, 1, 0, None) == status.ALIASING
    assert abi.cutile_cpp_dropout_inplace(ref(desc([8], "I32")), 0.5, 1, 0, None) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_dropout_inplace: x (i32[8] on cuda:0): the op supports f32, f16, bf16"
    assert abi.cutile_cpp_dropout_inplace(ref(desc([8], strides=[0])), 0.5, 1, 0, None) == status.ALIASING


# TileGym's tests/ops/test_dropout.py configurations (eps 1e-5 keeps every input nonzero), plus bf16.
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
def test_tilegym_configurations_on_the_gpu(m, p, dtype, training, inplace):
    seed = torch.random.initial_seed()
    x = torch.rand(m, device="cuda", dtype=dtype) + 1e-5
    x_clone = x.clone()
    res = cutile_cpp.dropout(x, seed, p, training, inplace)
    if (not training) or inplace:
        assert res is x
    if training:
        zero_ratio = 1 - torch.count_nonzero(res).item() / res.numel()
        assert p - 0.04 < zero_ratio < p + 0.04, zero_ratio
        torch.testing.assert_close(res.cpu(), expected(x_clone.cpu(), seed, p), rtol=0, atol=0)
    else:
        torch.testing.assert_close(x, x_clone, rtol=0, atol=0)


@needs_gpu
def test_every_element_is_written_on_the_gpu():
    x = torch.rand(3 * 1024 + 17, device="cuda") + 1e-5
    y = torch.full_like(x, float("nan"))  # poisoned: an element the kernel misses stays NaN
    _tensor.call("cutile_cpp_dropout", [y, x], ["y", "x"], (0.5, 123))
    assert not y.isnan().any()
    torch.testing.assert_close(y.cpu(), expected(x.cpu(), 123, 0.5), rtol=0, atol=0)


@needs_gpu
@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("m, p, dtype", GPU_CASES)
def test_identical_to_tilegyms_cutile_kernel(m, p, dtype, inplace):
    pytest.importorskip("cuda.tile", reason="TileGym's cutile backend needs cuda.tile")
    # The module itself: tilegym.ops.cutile re-exports its function under the module's name.
    theirs = importlib.import_module("tilegym.ops.cutile.dropout")

    x = torch.rand(m, device="cuda", dtype=dtype) + 1e-5
    for seed in (0, 11, 99, torch.random.initial_seed()):
        want = theirs.dropout(x.clone(), seed, p, True, inplace)
        got = cutile_cpp.dropout(x.clone(), seed, p, True, inplace)
        torch.testing.assert_close(got, want, rtol=0, atol=0)
