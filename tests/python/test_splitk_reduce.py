"""splitk_reduce: the generated function's signature; both bodies (sum for fewer than 16 splits, dot from 16,
the H200's choice the interpreter takes) on the CPU interpreter against float64 for every dtype, at ragged
head dims and split counts up to the largest tile; strided inputs and outputs, a given output, empty splits
and large log-sum-exps; the library's checks and the C ABI's statuses; the forward-only rule;
torch.compile; TileGym's entry (its parameter list, S_kv ignored, attn_out filled and returned); on the GPU,
TileGym's test configurations with a poisoned output, and agreement with TileGym's cutile kernel."""

from __future__ import annotations

import importlib
import inspect

import pytest
import torch

import cutile_cpp
from support import GPU_COUNT, bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

reference = bench_spec("splitk_reduce").reference
FLOATS = [torch.float32, torch.float16, torch.bfloat16]
# Against float64 of the same (rounded) inputs: the merge in f32, then one rounding to the dtype.
CPU_TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# On the GPU: TileGym's 1e-2 for f16 and bf16; f32 leaves room for the dot body's f32 mma if it runs as
# tf32 (operands rounded to 11 significant bits).
GPU_TOL = {torch.float32: 2e-3, torch.float16: 1e-2, torch.bfloat16: 1e-2}


def inputs(b, h, k, d, dtype, device="cpu"):
    """TileGym's test inputs: partials randn, lse randn * 2 + 5 in f32."""
    attn_splitk_out = torch.randn(b, h, k, d, device=device).to(dtype)
    lse_splitk_out = torch.randn(b, h, k, device=device) * 2.0 + 5.0
    return attn_splitk_out, lse_splitk_out


def assert_near_float64(out, attn_splitk_out, lse_splitk_out, tol):
    want = reference(attn_splitk_out.double().cpu(), lse_splitk_out.double().cpu())
    torch.testing.assert_close(out.double().cpu(), want, rtol=tol, atol=tol)


def test_signature():
    assert str(inspect.signature(cutile_cpp.splitk_reduce)) == "(attn_splitk_out, lse_splitk_out, *, attn_out=None)"
    assert "Forward-only." in cutile_cpp.splitk_reduce.__doc__


# ---- the CPU interpreter


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(
    "b, h, k, d",
    [(1, 1, 1, 5), (2, 3, 2, 64), (1, 2, 3, 130), (2, 2, 8, 300), (1, 3, 9, 64), (2, 2, 16, 130), (1, 2, 33, 40)],
)
def test_both_bodies_on_the_cpu_interpreter(dtype, b, h, k, d):
    attn_splitk_out, lse_splitk_out = inputs(b, h, k, d, dtype)
    out = cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out)
    assert out.shape == (b, h, d) and out.dtype == dtype and out.is_contiguous()
    assert_near_float64(out, attn_splitk_out, lse_splitk_out, CPU_TOL[dtype])


@pytest.mark.parametrize("k", [200, 256])
def test_the_largest_splits_tile(k):
    attn_splitk_out, lse_splitk_out = inputs(1, 2, k, 130, torch.float32)
    out = cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out)
    assert_near_float64(out, attn_splitk_out, lse_splitk_out, CPU_TOL[torch.float32])


def test_into_a_given_output_strided_everywhere():
    b, h, k, d = 2, 3, 5, 70
    stored = torch.randn(b, k, h, d)  # partials stored (B, K, H, D), viewed as (B, H, K, D)
    attn_splitk_out = stored.transpose(1, 2)
    lse_store = torch.full((b, h, 2 * k), 1e30)  # every other element; reading a skipped one would show
    lse_store[..., ::2] = torch.randn(b, h, k) * 2 + 5
    lse_splitk_out = lse_store[..., ::2]
    given = torch.full((b, d, h), float("nan")).transpose(1, 2)  # attn_out (B, H, D) with H innermost
    result = cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out, attn_out=given)
    assert result.data_ptr() == given.data_ptr() and result.stride() == given.stride()
    assert_near_float64(given, attn_splitk_out, lse_splitk_out, CPU_TOL[torch.float32])


def test_empty_splits_and_large_log_sum_exps():
    attn_splitk_out, lse_splitk_out = inputs(2, 2, 6, 33, torch.float32)
    lse_splitk_out[0, 0, 1:] = float("-inf")  # only split 0 saw keys: the result is that split's
    lse_splitk_out[0, 1, ::2] = float("-inf")
    lse_splitk_out[1, 0] += 100.0  # 2^105 overflows f32 without the max subtracted
    lse_splitk_out[1, 1] -= 100.0
    out = cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out)
    assert torch.equal(out[0, 0], attn_splitk_out[0, 0, 0])
    assert_near_float64(out, attn_splitk_out, lse_splitk_out, CPU_TOL[torch.float32])


def test_degenerate_extents():
    assert cutile_cpp.splitk_reduce(torch.randn(0, 3, 2, 8), torch.randn(0, 3, 2)).shape == (0, 3, 8)
    assert cutile_cpp.splitk_reduce(torch.randn(2, 3, 2, 0), torch.randn(2, 3, 2)).shape == (2, 3, 0)


def test_forward_only():
    attn_splitk_out, lse_splitk_out = inputs(1, 2, 4, 16, torch.float32)
    attn_splitk_out.requires_grad_()
    with pytest.warns(UserWarning, match="cutile_cpp.splitk_reduce is forward-only"):
        out = cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out)
    assert not out.requires_grad


def test_under_torch_compile():
    attn_splitk_out, lse_splitk_out = inputs(2, 2, 5, 48, torch.float32)
    compiled = torch.compile(lambda o, lse: cutile_cpp.splitk_reduce(o, lse) * 2.0, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(attn_splitk_out, lse_splitk_out),
                               cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out) * 2.0, rtol=0, atol=0)


def test_argument_checks():
    o, lse = torch.randn(2, 3, 5, 8, dtype=torch.float16), torch.randn(2, 3, 5)
    name = "cutile_cpp_splitk_reduce"
    with pytest.raises(TypeError, match=rf"{name}: attn_splitk_out \(i32\[1, 1, 2, 8\] on cpu\): the op supports f32, f16, bf16"):
        cutile_cpp.splitk_reduce(torch.zeros(1, 1, 2, 8, dtype=torch.int32), torch.randn(1, 1, 2))
    with pytest.raises(TypeError, match=rf"{name}: lse_splitk_out \(f16\[2, 3, 5\] on cpu\): the op supports f32"):
        cutile_cpp.splitk_reduce(o, lse.half())
    with pytest.raises(TypeError, match=rf"{name}: attn_out \(f32\[2, 3, 8\] on cpu\) and attn_splitk_out \(f16"):
        cutile_cpp.splitk_reduce(o, lse, attn_out=torch.empty(2, 3, 8))
    with pytest.raises(ValueError, match=rf"{name}: lse_splitk_out \(f32\[2, 3, 6\] on cpu\): dim 2 must be K = 5 \(K from attn_splitk_out's dim 2\)"):
        cutile_cpp.splitk_reduce(o, torch.randn(2, 3, 6))
    with pytest.raises(ValueError, match=rf"{name}: lse_splitk_out \(f32\[2, 3\] on cpu\): expected 3 dims \(f32\[B, H, K\]\)"):
        cutile_cpp.splitk_reduce(o, torch.randn(2, 3))
    with pytest.raises(ValueError, match=rf"{name}: attn_out \(f16\[2, 3, 9\] on cpu\): dim 2 must be D = 8 \(D from attn_splitk_out's dim 3\)"):
        cutile_cpp.splitk_reduce(o, lse, attn_out=torch.empty(2, 3, 9, dtype=torch.float16))
    with pytest.raises(ValueError, match=rf"{name}: requires K >= 1 \(K = 0 from attn_splitk_out's dim 2\)"):
        cutile_cpp.splitk_reduce(torch.randn(2, 3, 0, 8), torch.randn(2, 3, 0))
    with pytest.raises(cutile_cpp.CutileCppValueError, match=rf"{name}: requires K <= 256 \(K = 257 from attn_splitk_out's dim 2\)"):
        cutile_cpp.splitk_reduce(torch.randn(1, 1, 257, 8), torch.randn(1, 1, 257))
    x = torch.randn(2, 3, 1, 8)
    with pytest.raises(ValueError, match=rf"{name}: output attn_out .* overlaps attn_splitk_out"):
        cutile_cpp.splitk_reduce(x, torch.randn(2, 3, 1), attn_out=x[:, :, 0, :])


def _call(abi, out, o, lse):
    return abi.cutile_cpp_splitk_reduce(ref(out), ref(o), ref(lse), 0, None)


def test_abi_statuses(abi, status, desc):
    out, o, lse = desc([2, 3, 8], "F16"), desc([2, 3, 5, 8], "F16", data=0x100000), desc([2, 3, 5], data=0x200000)
    assert _call(abi, out, o, desc([2, 3, 5], "F16", data=0x200000)) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_splitk_reduce: lse_splitk_out (f16[2, 3, 5] on cuda:0): the op supports f32"
    assert _call(abi, desc([2, 3, 8], "BF16"), o, lse) == status.DTYPE_MISMATCH
    assert _call(abi, out, o, desc([2, 3, 6], data=0x200000)) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_splitk_reduce: lse_splitk_out (f32[2, 3, 6] on cuda:0): dim 2 must be K = 5 "
        "(K from attn_splitk_out's dim 2), got 6"
    )
    assert _call(abi, out, o, desc([2, 3, 5, 1], data=0x200000)) == status.RANK_MISMATCH
    assert _call(abi, out, desc([2, 3, 0, 8], "F16", data=0x100000), desc([2, 3, 0], data=0x200000)) == (
        status.SHAPE_MISMATCH
    )
    big = desc([2, 3, 257, 8], "F16", data=0x100000), desc([2, 3, 257], data=0x200000)
    assert _call(abi, out, *big) == status.UNSUPPORTED_SHAPE
    assert last_error(abi).startswith("cutile_cpp_splitk_reduce: requires K <= 256 (K = 257")
    assert _call(abi, desc([2, 3, 8], "F16", data=0x100000), o, lse) == status.ALIASING
    assert _call(abi, None, o, lse) == status.NULL_POINTER
    assert _call(abi, out, o, None) == status.NULL_POINTER


# ---- TileGym's splitk_reduce


def test_tilegym_registration_has_cutiles_signature(tilegym):
    from tilegym.backend import dispatcher

    ours = dispatcher._REGISTRY["splitk_reduce"]["cutile-cpp"]
    assert [p.name for p in inspect.signature(ours).parameters.values()] == [
        "attn_splitk_out", "lse_splitk_out", "attn_out", "S_kv", "kwargs"
    ]
    if not dispatcher.has_backend_impl("splitk_reduce", "cutile"):
        pytest.skip("TileGym's cutile backend is not importable here (cuda.tile missing)")
    assert parameters(ours) == parameters(dispatcher._REGISTRY["splitk_reduce"]["cutile"])


def test_tilegym_fills_and_returns_attn_out(tilegym, monkeypatch):
    device = "cuda" if GPU_COUNT else "cpu"
    attn_splitk_out, lse_splitk_out = inputs(2, 3, 8, 40, torch.bfloat16, device)
    calls = launched_ops(monkeypatch)
    for s_kv in (1024, 0, None):  # S_kv is accepted and unused, as by TileGym's kernel
        attn_out = torch.full((2, 3, 40), float("nan"), device=device, dtype=torch.bfloat16)
        result = tilegym.ops.splitk_reduce(attn_splitk_out, lse_splitk_out, attn_out, s_kv, backend="cutile-cpp")
        assert result is attn_out
        assert_near_float64(attn_out, attn_splitk_out, lse_splitk_out, CPU_TOL[torch.bfloat16])
    assert calls == ["splitk_reduce"] * 3
    previous = tilegym.backend.get_current_backend()
    tilegym.set_backend("cutile-cpp")
    try:
        attn_out = torch.empty(2, 3, 40, device=device, dtype=torch.bfloat16)
        assert tilegym.ops.splitk_reduce(attn_splitk_out, lse_splitk_out, attn_out, S_kv=256, unknown=1) is attn_out
    finally:
        tilegym.set_backend(previous)
    assert calls == ["splitk_reduce"] * 4


# ---- the GPU: TileGym's test configurations (tests/ops/test_splitk_reduce.py test_op and test_perf)

GPU_CASES = [(b, h, k, 512) for b in (1, 2) for h in (16, 32) for k in (1, 2, 8, 16)]
GPU_CASES += [(1, 16, 64, 512), (1, 32, 64, 512), (2, 4, 3, 100), (3, 5, 33, 300), (1, 2, 256, 130)]


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("b, h, k, d", GPU_CASES)
def test_the_reference_tests_configurations_on_the_gpu(dtype, b, h, k, d):
    torch.manual_seed(42)
    attn_splitk_out, lse_splitk_out = inputs(b, h, k, d, dtype, "cuda")
    attn_out = torch.full((b, h, d), float("nan"), device="cuda", dtype=dtype)  # a missed element stays NaN
    cutile_cpp.splitk_reduce(attn_splitk_out, lse_splitk_out, attn_out=attn_out)
    torch.cuda.synchronize()
    assert not attn_out.isnan().any()
    tol = GPU_TOL[dtype]
    torch.testing.assert_close(attn_out, reference(attn_splitk_out, lse_splitk_out), rtol=tol, atol=tol)


@needs_gpu
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("b, h, k, d", [(1, 32, 8, 512), (2, 16, 16, 512), (1, 16, 64, 512), (2, 3, 5, 300)])
def test_agrees_with_tilegyms_cutile_kernel(tilegym, dtype, b, h, k, d):
    pytest.importorskip("cuda.tile", reason="TileGym's cutile backend needs cuda.tile")
    theirs = importlib.import_module("tilegym.ops.cutile.splitk_reduce")
    attn_splitk_out, lse_splitk_out = inputs(b, h, k, d, dtype, "cuda")
    want = theirs.splitk_reduce(attn_splitk_out, lse_splitk_out, torch.empty(b, h, d, device="cuda", dtype=dtype), 0)
    got = tilegym.ops.splitk_reduce(attn_splitk_out, lse_splitk_out, torch.empty_like(want), 0, backend="cutile-cpp")
    # The same operations in the same order: at most one rounding of the dtype apart.
    ulp = 2**-10 if dtype == torch.float16 else 2**-7
    torch.testing.assert_close(got, want, rtol=ulp, atol=1e-5)
