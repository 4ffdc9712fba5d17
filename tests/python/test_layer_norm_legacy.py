"""layer_norm_legacy: its signature; CPU-interpreter round trips against the benchmarks' reference in float64
for every dtype and weight_shift and each of the launcher's instances; the forward-only rule; torch.compile;
errors of the library, of Python and of the C ABI; TileGym's layer_norm_legacy; on a GPU, TileGym's
configurations and tolerances with outputs poisoned before the call."""

from __future__ import annotations

import importlib
import inspect

import pytest
import torch

import cutile_cpp
from support import bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
spec = bench_spec("layer_norm_legacy")


def reference(x, weight, bias, eps, weight_shift=0.0):
    """The benchmarks' reference in float64, the weight shifted."""
    return spec.reference(x.double(), weight.double() + weight_shift, bias.double(), eps)


def test_signature():
    assert str(inspect.signature(cutile_cpp.layer_norm_legacy)) == (
        "(x, weight, bias, eps, weight_shift=0.0, *, y=None, mean=None, rstd=None)"
    )


@pytest.mark.parametrize("dtype", FLOATS)
# 1, 9: one 16-column tile; 64: one tile with N baked in; 100, 300: two tiles, the second ragged.
@pytest.mark.parametrize("shape", [(1, 1), (9, 9), (5, 64), (37, 100), (2, 3, 300)])
@pytest.mark.parametrize("weight_shift", [0.0, 1.0])
def test_on_the_cpu_interpreter(dtype, shape, weight_shift):
    x = torch.randn(shape, dtype=dtype) * 2 + 0.5
    w, b = torch.randn(shape[-1], dtype=dtype), torch.randn(shape[-1], dtype=dtype)
    y, mean, rstd = cutile_cpp.layer_norm_legacy(x, w, b, 1e-5, weight_shift)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    assert mean.shape == rstd.shape == (x.numel() // shape[-1],) and mean.dtype == rstd.dtype == torch.float32
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(y.double(), reference(x, w, b, 1e-5, weight_shift), rtol=tol, atol=tol)
    x64 = x.double().reshape(-1, shape[-1])
    torch.testing.assert_close(mean.double(), x64.mean(-1), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd.double(), torch.rsqrt(x64.var(-1, unbiased=False) + 1e-5), rtol=1e-4, atol=1e-4)


def test_forward_only():
    x = torch.randn(4, 8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.layer_norm_legacy is forward-only"):
        y, _, _ = cutile_cpp.layer_norm_legacy(x, torch.randn(8), torch.randn(8), 1e-5)
    assert not y.requires_grad


def test_under_torch_compile():
    x, w, b = torch.randn(6, 40), torch.randn(40), torch.randn(40)
    compiled = torch.compile(
        lambda *a: cutile_cpp.layer_norm_legacy(*a, 1e-5)[0] + 1.0, backend="aot_eager", fullgraph=True
    )
    torch.testing.assert_close(compiled(x, w, b).double(), reference(x, w, b, 1e-5) + 1.0, rtol=1e-5, atol=1e-5)


def test_argument_checks():
    x, w = torch.randn(4, 8), torch.randn(8)
    with pytest.raises(
        cutile_cpp.CutileCppTypeError,
        match=r"cutile_cpp_layer_norm_legacy: bias \(f16\[8\] on cpu\) and x \(f32\[4, 8\] on cpu\) must have the same",
    ):
        cutile_cpp.layer_norm_legacy(x, w, w.half(), 1e-5)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_layer_norm_legacy: weight \(f32\[7\] on cpu\): dim 0 must be N = 8",
    ):
        cutile_cpp.layer_norm_legacy(x, torch.randn(7), w, 1e-5)
    with pytest.raises(TypeError, match=r"cutile_cpp.layer_norm_legacy: bias is required"):
        cutile_cpp.layer_norm_legacy(x, w, None, 1e-5)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_layer_norm_legacy: requires N \* size\(E\) <= 65536 \(N = 40000 from x's dim 1\): a row of",
    ):
        wide = torch.randn(40000).half()
        cutile_cpp.layer_norm_legacy(wide[None], wide, wide, 1e-5)
    for eps in (float("nan"), -1.0):
        with pytest.raises(
            cutile_cpp.CutileCppValueError,
            match=r"cutile_cpp_layer_norm_legacy: eps is .*; it must satisfy finite\(eps\) && eps >= 0",
        ):
            cutile_cpp.layer_norm_legacy(x, w, w, eps)
    with pytest.raises(ValueError, match=r"cutile_cpp.layer_norm_legacy: x is on meta"):
        cutile_cpp.layer_norm_legacy(torch.zeros(4, 8, device="meta"), w, w, 1e-5)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_layer_norm_legacy: mean \(f32\[3\] on cpu\): dim 0 must be M = 4",
    ):
        cutile_cpp.layer_norm_legacy(x, w, w, 1e-5, mean=torch.empty(3))


def test_abi_statuses(abi, status, desc):
    y, x, w, b = desc([4, 8]), desc([4, 8], data=0x100000), desc([8], data=0x200000), desc([8], data=0x300000)
    mean, rstd = desc([4], data=0x400000), desc([4], data=0x500000)

    def call(*tensors):
        return abi.cutile_cpp_layer_norm_legacy(*[ref(t) for t in tensors], 1e-5, 0.0, 0, None)

    assert call(y, mean, desc([4], dtype="F16", data=0x500000), x, w, b) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_layer_norm_legacy: rstd (f16[4] on cuda:0): the op supports f32"
    assert call(y, mean, rstd, x, w, desc([8], dtype="F16", data=0x300000)) == status.DTYPE_MISMATCH
    assert call(y, mean, rstd, x, w, desc([9], data=0x300000)) == status.SHAPE_MISMATCH and "bias" in last_error(abi)
    assert call(y, desc([3], data=0x400000), rstd, x, w, b) == status.SHAPE_MISMATCH and "mean" in last_error(abi)
    assert call(desc([4, 8, 1]), mean, rstd, x, w, b) == status.RANK_MISMATCH
    assert call(y, mean, rstd, desc([4, 8]), w, b) == status.ALIASING  # x at y's address
    wide = [desc([2, 20000]), desc([2], data=0x100000), desc([2], data=0x200000), desc([2, 20000], data=0x1000000),
            desc([20000], data=0x2000000), desc([20000], data=0x3000000)]
    assert call(*wide) == status.UNSUPPORTED_SHAPE
    code = abi.cutile_cpp_layer_norm_legacy(*[ref(t) for t in (y, mean, rstd, x, w, b)], 1e-5, float("inf"), 0, None)
    assert code == status.INVALID_ARGUMENT
    assert last_error(abi) == (
        "cutile_cpp_layer_norm_legacy: weight_shift is inf; it must satisfy finite(weight_shift)"
    )


def test_tilegym_layer_norm_legacy_runs_our_kernel():
    tilegym = pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    importlib.import_module("tilegym.ops")
    from tilegym.backend import dispatcher

    importlib.import_module("cutile_cpp.tilegym")
    ours = dispatcher._REGISTRY["layer_norm_legacy"]["cutile-cpp"]
    if dispatcher.has_backend_impl("layer_norm_legacy", "cutile"):
        theirs = dispatcher._REGISTRY["layer_norm_legacy"]["cutile"]
        assert [(p.name, p.kind, p.default) for p in inspect.signature(ours).parameters.values()] == [
            (p.name, p.kind, p.default) for p in inspect.signature(theirs).parameters.values()
        ]
    x = torch.randn(2, 7, 48)
    w, b = torch.randn(48), torch.randn(48)
    y = tilegym.ops.layer_norm_legacy(x, (48,), w, b, 1e-5, 1.0, backend="cutile-cpp")
    assert isinstance(y, torch.Tensor) and y.shape == x.shape
    torch.testing.assert_close(y.double(), reference(x, w, b, 1e-5, 1.0), rtol=1e-5, atol=1e-5)


@needs_gpu
@pytest.mark.parametrize(
    "m, n, weight_shift, dtype",
    [
        (256, 256, 0.0, torch.float16),
        (256, 256, 0.0, torch.float32),
        (256, 256, 1.0, torch.float16),
        (9, 9, 0.0, torch.float16),
    ],
)
def test_gpu_matches_torch(m, n, weight_shift, dtype):
    x = torch.rand((m, n), dtype=dtype, device="cuda").mul_(0.5).add_(-2.3)
    w = torch.randn(n, dtype=dtype, device="cuda")
    b = torch.rand(n, dtype=dtype, device="cuda")
    y = torch.full_like(x, float("nan"))
    mean = torch.full((m,), float("nan"), device="cuda")
    rstd = torch.full((m,), float("nan"), device="cuda")
    cutile_cpp.layer_norm_legacy(x, w, b, 1e-5, weight_shift, y=y, mean=mean, rstd=rstd)
    torch.cuda.synchronize()
    expected = spec.reference(x, w + weight_shift, b, 1e-5)
    torch.testing.assert_close(y, expected, rtol=0.0, atol=1e-2)
    torch.testing.assert_close(mean, x.float().mean(-1), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(rstd, torch.rsqrt(x.float().var(-1, unbiased=False) + 1e-5), rtol=1e-4, atol=1e-4)
    y2, _, _ = cutile_cpp.layer_norm_legacy(x, w, b, 1e-5, weight_shift)
    torch.testing.assert_close(y2, expected, rtol=0.0, atol=1e-2)
