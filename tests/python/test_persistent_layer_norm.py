"""persistent_layer_norm and its given-statistics form: their signatures; CPU-interpreter round trips against
the benchmarks' reference in float64 (y through bfloat16, as TileGym's kernel stores it); torch.compile; the
forward-only rule; errors of the library, of Python and of the C ABI; TileGym's persistent_layer_norm (its
return tuple, given statistics); on a GPU, TileGym's configurations and tolerances with outputs poisoned
before the call."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from support import bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
spec = bench_spec("persistent_layer_norm")


def statistics(x, eps):
    x64 = x.double().reshape(-1, x.shape[-1])
    return x64.mean(-1), torch.rsqrt(x64.var(-1, unbiased=False) + eps)


def test_signatures():
    assert str(inspect.signature(cutile_cpp.persistent_layer_norm)) == (
        "(x, weight, bias, eps, *, y=None, mean=None, rstd=None)"
    )
    given_stats = cutile_cpp.persistent_layer_norm_given_stats
    assert str(inspect.signature(given_stats)) == "(x, weight, bias, mean, rstd, *, y=None)"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 3), (37, 100), (3, 5, 64), (70, 33), (9, 700)])
def test_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    w, b = torch.randn(shape[-1], dtype=dtype), torch.randn(shape[-1], dtype=dtype)
    y, mean, rstd = cutile_cpp.persistent_layer_norm(x, w, b, 1e-6)
    assert y.shape == x.shape and y.dtype == dtype and mean.dtype == rstd.dtype == torch.float32
    want = spec.reference(x.double(), w.double(), b.double(), 1e-6)
    torch.testing.assert_close(y.double(), want, rtol=1.6e-2, atol=1.6e-2)  # stored through bf16
    mean_ref, rstd_ref = statistics(x, 1e-6)
    torch.testing.assert_close(mean.double(), mean_ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd.double(), rstd_ref, rtol=1e-4, atol=1e-4)
    # Given the statistics it computed, the same y again.
    torch.testing.assert_close(cutile_cpp.persistent_layer_norm_given_stats(x, w, b, mean, rstd), y, rtol=0, atol=0)


def test_given_statistics_are_read():
    x, w, b = torch.randn(9, 16), torch.randn(16), torch.randn(16)
    y = cutile_cpp.persistent_layer_norm_given_stats(x, w, b, torch.zeros(9), torch.full((9,), 2.0))
    expected = (x.double() * 2.0 * w.double() + b.double()).to(torch.bfloat16).float()
    torch.testing.assert_close(y, expected, rtol=1.6e-2, atol=1.6e-2)


def test_under_torch_compile():
    x, w, b = torch.randn(6, 40), torch.randn(40), torch.randn(40)
    compiled = torch.compile(
        lambda *a: cutile_cpp.persistent_layer_norm(*a, 1e-6)[0] * 2.0, backend="aot_eager", fullgraph=True
    )
    want = spec.reference(x.double(), w.double(), b.double(), 1e-6) * 2.0
    torch.testing.assert_close(compiled(x, w, b).double(), want, rtol=3.2e-2, atol=3.2e-2)


def test_forward_only():
    x = torch.randn(4, 8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.persistent_layer_norm is forward-only"):
        y, _, _ = cutile_cpp.persistent_layer_norm(x, torch.randn(8), torch.randn(8), 1e-6)
    assert not y.requires_grad


def test_argument_checks():
    x, w = torch.randn(4, 8), torch.randn(8)
    with pytest.raises(
        cutile_cpp.CutileCppTypeError,
        match=r"cutile_cpp_persistent_layer_norm: mean \(f16\[4\] on cpu\): the op supports f32",
    ):
        cutile_cpp.persistent_layer_norm(x, w, w, 1e-6, mean=torch.zeros(4, dtype=torch.float16))
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_persistent_layer_norm_given_stats: rstd \(f32\[5\] on cpu\): dim 0 must be M = 4",
    ):
        cutile_cpp.persistent_layer_norm_given_stats(x, w, w, torch.zeros(4), torch.zeros(5))
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_persistent_layer_norm: bias \(f32\[3\] on cpu\): dim 0 must be N = 8",
    ):
        cutile_cpp.persistent_layer_norm(x, w, torch.randn(3), 1e-6)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_persistent_layer_norm: requires N <= 16384 \(N = 16385 from x's dim 1\)",
    ):
        cutile_cpp.persistent_layer_norm(torch.randn(1, 16385), torch.randn(16385), torch.randn(16385), 1e-6)
    with pytest.raises(TypeError, match=r"cutile_cpp.persistent_layer_norm: eps is required"):
        cutile_cpp.persistent_layer_norm(x, w, w, None)
    with pytest.raises(TypeError, match=r"cutile_cpp.persistent_layer_norm: eps must be a real number, got str"):
        cutile_cpp.persistent_layer_norm(x, w, w, "1e-6")


def test_abi_statuses(abi, status, desc):
    y, x, w, b = desc([4, 8]), desc([4, 8], data=0x100000), desc([8], data=0x200000), desc([8], data=0x300000)
    mean, rstd = desc([4], data=0x400000), desc([4], data=0x500000)
    code = abi.cutile_cpp_persistent_layer_norm(ref(y), ref(mean), ref(desc([4], dtype="BF16", data=0x500000)), ref(x),
                                               ref(w), ref(b), 1e-6, 0, None)
    assert code == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_persistent_layer_norm: rstd (bf16[4] on cuda:0): the op supports f32"
    code = abi.cutile_cpp_persistent_layer_norm(ref(y), ref(mean), ref(rstd), ref(x), ref(desc([7], data=0x200000)),
                                               ref(b), 1e-6, 0, None)
    assert code == status.SHAPE_MISMATCH and "weight" in last_error(abi)
    short_mean = desc([5], data=0x400000)
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(ref(y), ref(x), ref(w), ref(b), ref(short_mean), ref(rstd),
                                                           0, None)
    assert code == status.SHAPE_MISMATCH and "mean" in last_error(abi)
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(ref(y), ref(x), ref(w), ref(b), ref(mean), ref(rstd), -1,
                                                           None)
    assert code == status.INVALID_ARGUMENT
    # Rows past 16384 elements: both entry points refuse them before anything is compiled.
    wide = [desc([2, 16385]), desc([2, 16385], data=0x1000000), desc([16385], data=0x2000000),
            desc([16385], data=0x3000000), desc([2], data=0x400000), desc([2], data=0x500000)]
    code = abi.cutile_cpp_persistent_layer_norm(ref(wide[0]), ref(wide[4]), ref(wide[5]), ref(wide[1]), ref(wide[2]),
                                               ref(wide[3]), 1e-6, 0, None)
    assert code == status.UNSUPPORTED_SHAPE
    assert last_error(abi) == (
        "cutile_cpp_persistent_layer_norm: requires N <= 16384 (N = 16385 from x's dim 1): a row is one column tile "
        "of at most 16384 (wider ones take tileiras minutes)"
    )
    code = abi.cutile_cpp_persistent_layer_norm_given_stats(*[ref(d) for d in wide], 0, None)
    assert code == status.UNSUPPORTED_SHAPE and "requires N <= 16384" in last_error(abi)


# ---- TileGym's persistent_layer_norm


def test_tilegym_registration_has_cutiles_signature(tilegym):
    from tilegym.backend import dispatcher

    ours = dispatcher._REGISTRY["persistent_layer_norm"]["cutile-cpp"]
    assert ours.__module__ == "cutile_cpp.tilegym.persistent_layer_norm"
    if not dispatcher.has_backend_impl("persistent_layer_norm", "cutile"):
        pytest.skip("TileGym's cutile backend is not importable here (cuda.tile missing)")
    theirs = dispatcher._REGISTRY["persistent_layer_norm"]["cutile"]
    assert [(p.name, p.kind, p.default) for p in inspect.signature(ours).parameters.values()] == [
        (p.name, p.kind, p.default) for p in inspect.signature(theirs).parameters.values()
    ]


def test_tilegym_persistent_layer_norm_returns_its_tuple(tilegym):
    x = torch.randn(2, 7, 48)
    w, b = torch.randn(48), torch.randn(48)
    y, mean, rstd, block_d, num_warps = tilegym.ops.persistent_layer_norm(x, (48,), w, b, 1e-5, backend="cutile-cpp")
    assert y.shape == x.shape and mean.shape == rstd.shape == (14,) and (block_d, num_warps) == (64, 8)
    torch.testing.assert_close(y.double(), spec.reference(x.double(), w.double(), b.double(), 1e-5), rtol=1.6e-2,
                               atol=1.6e-2)
    # Given both statistics they are read and returned as given; given one, it is written.
    given_mean, given_rstd = torch.zeros(14), torch.full((14,), 2.0)
    y2, mean2, rstd2, _, _ = tilegym.ops.persistent_layer_norm(x, (48,), w, b, 1e-5, given_mean, given_rstd,
                                                               backend="cutile-cpp")
    assert mean2 is given_mean and rstd2 is given_rstd
    expected = (x.double() * 2.0 * w.double() + b.double()).to(torch.bfloat16).double()
    torch.testing.assert_close(y2.double(), expected, rtol=1.6e-2, atol=1.6e-2)
    only_mean = torch.full((14,), float("nan"))
    _, mean3, rstd3, _, _ = tilegym.ops.persistent_layer_norm(x, (48,), w, b, 1e-5, mean=only_mean,
                                                              backend="cutile-cpp")
    assert mean3 is only_mean
    torch.testing.assert_close(only_mean, mean, rtol=0, atol=0)
    torch.testing.assert_close(rstd3, rstd, rtol=0, atol=0)


@needs_gpu
@pytest.mark.parametrize(
    "m, n, dtype",
    [(256, 256, torch.bfloat16), (1024, 1024, torch.bfloat16), (4096, 512, torch.bfloat16),
     (30000, 1024, torch.bfloat16),
     (64, 10000, torch.bfloat16),  # TileGym's largest D
     (128, 16384, torch.bfloat16)],  # the largest supported
)
def test_gpu_matches_torch(tilegym, m, n, dtype):
    x = torch.randn((m, n), dtype=dtype, device="cuda")
    w = torch.randn(n, dtype=dtype, device="cuda")
    b = torch.randn(n, dtype=dtype, device="cuda")
    y = torch.full_like(x, float("nan"))
    mean = torch.full((m,), float("nan"), device="cuda")
    rstd = torch.full((m,), float("nan"), device="cuda")
    cutile_cpp.persistent_layer_norm(x, w, b, 1e-6, y=y, mean=mean, rstd=rstd)
    torch.cuda.synchronize()
    y_ref = spec.reference(x, w, b, 1e-6)
    torch.testing.assert_close(y, y_ref, atol=1e-2, rtol=1e-2)
    torch.testing.assert_close(mean, x.mean(dim=-1).float(), atol=1e-2, rtol=1e-2)
    rstd_ref = (1.0 / torch.sqrt(x.var(dim=-1, unbiased=False) + 1e-6)).float()
    torch.testing.assert_close(rstd, rstd_ref, atol=1e-2, rtol=1e-2)
    y2, mean2, rstd2, block_d, num_warps = tilegym.ops.persistent_layer_norm(x, (n,), w, b, 1e-6, backend="cutile-cpp")
    torch.testing.assert_close(y2, y_ref, atol=1e-2, rtol=1e-2)
    assert block_d == 1 << (n - 1).bit_length() and num_warps == 8
