"""persistent_layer_norm: CPU-interpreter round trips against float64 (y through bfloat16, as TileGym's
kernel stores it), given statistics, TileGym's return tuple, argument and C ABI errors; on a GPU,
TileGym's configurations and tolerances with outputs poisoned before the call."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from cutile_cpp._ops import _norm_common
from support import last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]


def reference(x, weight, bias, eps):
    x64 = x.double().reshape(-1, x.shape[-1])
    mean = x64.mean(-1)
    rstd = torch.rsqrt(x64.var(-1, unbiased=False) + eps)
    y = (x64 - mean[:, None]) * rstd[:, None] * weight.double() + bias.double()
    return y.reshape(x.shape), mean, rstd


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 3), (37, 100), (3, 5, 64), (70, 33)])
def test_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    w, b = torch.randn(shape[-1], dtype=dtype), torch.randn(shape[-1], dtype=dtype)
    y, mean, rstd, block_d, num_warps = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6)
    y_ref, mean_ref, rstd_ref = reference(x, w, b, 1e-6)
    assert y.shape == x.shape and y.dtype == dtype and mean.dtype == rstd.dtype == torch.float32
    assert block_d == 1 << (shape[-1] - 1).bit_length() and num_warps == 8
    torch.testing.assert_close(y.double(), y_ref, rtol=1.6e-2, atol=1.6e-2)  # stored through bf16
    torch.testing.assert_close(mean.double(), mean_ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd.double(), rstd_ref, rtol=1e-4, atol=1e-4)
    # Given both statistics, they are read: the same y again, and the tensors come back as given.
    y2, mean2, rstd2, _, _ = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6, mean, rstd)
    assert mean2 is mean and rstd2 is rstd
    torch.testing.assert_close(y2, y, rtol=0, atol=0)


def test_given_statistics_are_used_and_one_given_is_overwritten():
    x, w, b = torch.randn(9, 16), torch.randn(16), torch.randn(16)
    mean, rstd = torch.zeros(9), torch.full((9,), 2.0)
    y, _, _, _, _ = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6, mean, rstd)
    expected = (x.double() * 2.0 * w.double() + b.double()).to(torch.bfloat16).float()
    torch.testing.assert_close(y, expected, rtol=1.6e-2, atol=1.6e-2)
    only_mean = torch.full((9,), float("nan"))
    _, mean_out, _, _, _ = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6, mean=only_mean)
    assert mean_out is only_mean
    torch.testing.assert_close(only_mean.double(), x.double().mean(-1), rtol=1e-5, atol=1e-5)


def test_under_torch_compile():
    x, w, b = torch.randn(6, 40), torch.randn(40), torch.randn(40)
    compiled = torch.compile(lambda *a: cutile_cpp.persistent_layer_norm(*a, 1e-6)[0] * 2.0, backend="aot_eager",
                             fullgraph=True)
    torch.testing.assert_close(compiled(x, w, b).double(), reference(x, w, b, 1e-6)[0] * 2.0, rtol=3.2e-2, atol=3.2e-2)


def test_argument_checks():
    x, w = torch.randn(4, 8), torch.randn(8)
    with pytest.raises(TypeError, match=r"cutile_cpp.persistent_layer_norm: mean must be a float32 torch.Tensor"):
        cutile_cpp.persistent_layer_norm(x, w, w, 1e-6, mean=torch.zeros(4, dtype=torch.float16))
    with pytest.raises(ValueError, match=r"cutile_cpp.persistent_layer_norm: rstd must have shape \(4,\), got \(5,\)"):
        cutile_cpp.persistent_layer_norm(x, w, w, 1e-6, rstd=torch.zeros(5))
    with pytest.raises(ValueError, match=r"cutile_cpp.persistent_layer_norm: bias must have shape \(8,\)"):
        cutile_cpp.persistent_layer_norm(x, w, torch.randn(3), 1e-6)
    with pytest.raises(ValueError, match=r"cutile_cpp.persistent_layer_norm: rows of 16385 elements exceed the 16384"):
        cutile_cpp.persistent_layer_norm(torch.randn(1, 16385), torch.randn(16385), torch.randn(16385), 1e-6)


def test_abi_errors(abi, status, desc):
    y, x, w, b, mean, rstd = desc([4, 8]), desc([4, 8]), desc([8]), desc([8]), desc([4]), desc([4])
    code = abi.cutile_cpp_persistent_layer_norm(ref(y), ref(mean), ref(desc([4], dtype="BF16")), ref(x), ref(w),
                                               ref(b), 1e-6, 0, None)
    assert code == status.UNSUPPORTED_DTYPE
    assert "cutile_cpp_persistent_layer_norm" in last_error(abi) and "rstd" in last_error(abi)
    code = abi.cutile_cpp_persistent_layer_norm(ref(y), ref(mean), ref(rstd), ref(x), ref(desc([7])), ref(b), 1e-6,
                                               0, None)
    assert code == status.SHAPE_MISMATCH and "weight" in last_error(abi)
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(ref(y), ref(x), ref(w), ref(b), ref(desc([5])), ref(rstd),
                                                           0, None)
    assert code == status.SHAPE_MISMATCH and "mean" in last_error(abi)
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(ref(y), ref(x), ref(w), ref(b), ref(mean), ref(rstd),
                                                           -1, None)
    assert code == status.INVALID_ARGUMENT
    # Rows past 16384 elements: both entry points refuse them before anything is compiled.
    wide = [desc([2, 16385]), desc([2, 16385]), desc([16385]), desc([16385]), desc([2]), desc([2])]
    code = abi.cutile_cpp_persistent_layer_norm(ref(wide[0]), ref(wide[4]), ref(wide[5]), ref(wide[1]), ref(wide[2]),
                                               ref(wide[3]), 1e-6, 0, None)
    assert code == status.UNSUPPORTED_SHAPE
    assert last_error(abi) == (
        "cutile_cpp_persistent_layer_norm: x (f32[2, 16385] on cuda:0): rows of 16385 elements exceed the 16384 "
        "the persistent kernel supports"
    )
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(*[ref(d) for d in wide], 0, None)
    assert code == status.UNSUPPORTED_SHAPE and "rows of 16385 elements exceed the 16384" in last_error(abi)


@needs_gpu
@pytest.mark.parametrize(
    "m, n, dtype",
    [(256, 256, torch.bfloat16), (1024, 1024, torch.bfloat16), (4096, 512, torch.bfloat16),
     (30000, 1024, torch.bfloat16),
     (64, 10000, torch.bfloat16),  # TileGym's largest D
     (128, 16384, torch.bfloat16)],  # the largest supported
)
def test_gpu_matches_torch(m, n, dtype):
    x = torch.randn((m, n), dtype=dtype, device="cuda")
    w = torch.randn(n, dtype=dtype, device="cuda")
    b = torch.randn(n, dtype=dtype, device="cuda")
    y = torch.full_like(x, float("nan"))
    mean = torch.full((m,), float("nan"), device="cuda")
    rstd = torch.full((m,), float("nan"), device="cuda")
    _norm_common.call("cutile_cpp_persistent_layer_norm", [y, mean, rstd, x, w, b],
                      ["y", "mean", "rstd", "x", "weight", "bias"], 1e-6)
    torch.cuda.synchronize()
    y_ref = torch.nn.functional.layer_norm(x, (n,), w, b, 1e-6)
    torch.testing.assert_close(y, y_ref, atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(mean, x.mean(dim=-1).float(), atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(rstd, (1.0 / torch.sqrt(x.var(dim=-1, unbiased=False) + 1e-6)).float(), atol=1e-2, rtol=1e-2)
    y2, mean2, rstd2, block_d, num_warps = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6)
    torch.testing.assert_close(y2, y_ref, atol=1e-2, rtol=1e-2)
    assert block_d == 1 << (n - 1).bit_length() and num_warps == 8
