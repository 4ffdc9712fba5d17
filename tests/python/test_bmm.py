"""bmm: the generated function's signature; both kernels on the CPU interpreter against float64 for every
dtype, every transpose pair and every persistent tile candidate, at ragged and degenerate sizes, strided
inputs and a given output; the library's checks of batched, transposed operands and the C ABI's statuses;
the forward-only rule; torch.compile; TileGym's entry (its parameter list, its defaults, kernel_configs);
on the GPU, TileGym's test configurations with a poisoned output, every dtype and tile candidate."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppValueError
from support import bench_spec, last_error, launched_ops, needs_gpu, parameters, ref

reference = bench_spec("bmm").reference
FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TRANSPOSES = [(False, False), (True, False), (False, True), (True, True)]
# Relative to Σ|a·b|: f32 in f32 (TileGym's bmm does not round to tf32), f16 and bf16 one output rounding
# with room (bf16: 2^-7, its ulp at worst).
RELATIVE = {torch.float32: 2e-3, torch.float16: 1e-3, torch.bfloat16: 2**-7}
# On the GPU against the f32 reference, randn operands (results near zero by cancellation, unlike TileGym's
# rand ones): TileGym's rtol for f16, one ulp for the dtypes it does not test; atol rtol·√K, as matmul's.
GPU_RTOL = {torch.float16: 1e-3, torch.bfloat16: 2**-7, torch.float32: 2e-3}


def operands(q, m, n, k, dtype, transpose_a=False, transpose_b=False, device="cpu", rand=torch.randn):
    """a and b as stored (transposed ones as (Q, K, M) and (Q, N, K), as TileGym gives them)."""
    a = rand((q, k, m) if transpose_a else (q, m, k), device=device).to(dtype)
    b = rand((q, n, k) if transpose_b else (q, k, n), device=device).to(dtype)
    return a, b


def assert_near_float64(c, a, b, transpose_a=False, transpose_b=False):
    """c against op(a) @ op(b) in float64 of the same (rounded) inputs, within RELATIVE of Σ|a·b|."""
    a = (a.transpose(1, 2) if transpose_a else a).double().cpu()
    b = (b.transpose(1, 2) if transpose_b else b).double().cpu()
    want, scale = torch.bmm(a, b), torch.bmm(a.abs(), b.abs())
    error = (c.double().cpu() - want).abs()
    assert (error <= RELATIVE[c.dtype] * (scale + want.abs()) + 1e-6).all(), f"max error {error.max().item()}"


def test_signature():
    assert str(inspect.signature(cutile_cpp.bmm)) == (
        "(a, b, transpose_a=False, transpose_b=False, static_persistent=True, config=-1, *, c=None)"
    )
    assert "Forward-only." in cutile_cpp.bmm.__doc__


# ---- the CPU interpreter


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("static_persistent", [True, False])
@pytest.mark.parametrize("transpose_a, transpose_b", TRANSPOSES)
def test_both_kernels_on_the_cpu_interpreter(dtype, static_persistent, transpose_a, transpose_b):
    a, b = operands(3, 130, 70, 45, dtype, transpose_a, transpose_b)
    c = cutile_cpp.bmm(a, b, transpose_a=transpose_a, transpose_b=transpose_b, static_persistent=static_persistent)
    assert c.shape == (3, 130, 70) and c.dtype == dtype and c.is_contiguous()
    assert_near_float64(c, a, b, transpose_a, transpose_b)
    torch.testing.assert_close(c.float(), reference(a, b, transpose_a, transpose_b).float(),
                               rtol=2 * RELATIVE[dtype], atol=1e-2)


@pytest.mark.parametrize("config", [-1, 0, 1, 2])
@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, True)])
def test_every_persistent_tile_candidate(config, transpose_a, transpose_b):
    # 2 x 300 x 200 with K = 100: ragged in every tile of every candidate (256/128 x 128/64 x 64)
    a, b = operands(2, 300, 200, 100, torch.float16, transpose_a, transpose_b)
    c = cutile_cpp.bmm(a, b, transpose_a=transpose_a, transpose_b=transpose_b, config=config)
    assert_near_float64(c, a, b, transpose_a, transpose_b)


@pytest.mark.parametrize("static_persistent", [True, False])
@pytest.mark.parametrize("q, m, n, k", [(1, 1, 1, 1), (5, 3, 2, 7), (2, 257, 131, 129)])
def test_ragged_and_small_sizes(static_persistent, q, m, n, k):
    a, b = operands(q, m, n, k, torch.float32)
    assert_near_float64(cutile_cpp.bmm(a, b, static_persistent=static_persistent), a, b)


@pytest.mark.parametrize("static_persistent", [True, False])
def test_empty_operands(static_persistent):
    # K = 0: every output element is the empty sum; an empty output launches nothing
    c = cutile_cpp.bmm(torch.randn(2, 3, 0), torch.randn(2, 0, 4), static_persistent=static_persistent)
    assert torch.equal(c, torch.zeros(2, 3, 4))
    for q, m, n in ((0, 3, 4), (2, 0, 4), (2, 3, 0)):
        assert cutile_cpp.bmm(torch.randn(q, m, 5), torch.randn(q, 5, n), static_persistent=static_persistent).shape == (
            q, m, n)


def test_strided_inputs():
    # a transposed view is a strided (Q, M, K) operand, not a transposed one; a batch slice keeps its strides
    a, b = operands(3, 40, 24, 33, torch.float32)
    strided_a = a.transpose(1, 2).contiguous().transpose(1, 2)
    strided_b = torch.randn(6, 33, 24)[::2]
    for x, y in ((strided_a, b), (a, strided_b), (strided_a, strided_b)):
        c = cutile_cpp.bmm(x, y)
        assert c.is_contiguous()
        assert_near_float64(c, x, y)


def test_a_given_output():
    a, b = operands(2, 17, 9, 12, torch.float16)
    c = torch.full((2, 17, 9), float("nan"), dtype=torch.float16)
    assert cutile_cpp.bmm(a, b, c=c).data_ptr() == c.data_ptr()
    assert_near_float64(c, a, b)


# ---- the library's checks, the C ABI


def test_checks_of_batched_and_transposed_operands():
    with pytest.raises(CutileCppValueError, match=r"cutile_cpp_bmm: b \(f32\[3, 8, 4\] on cpu\): dim 0 must be Q = 2 "
                       r"\(Q from a's dim 0\), got 3"):
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(3, 8, 4))
    with pytest.raises(CutileCppValueError, match=r"b \(f32\[2, 9, 4\] on cpu\): dim 1 must be K = 8 \(K from a's "
                       r"dim 1\), got 9"):
        cutile_cpp.bmm(torch.randn(2, 8, 3), torch.randn(2, 9, 4), transpose_a=True)
    with pytest.raises(CutileCppValueError, match=r"b \(f32\[2, 4, 9\] on cpu\) \(given transposed: transpose_b\): "
                       r"dim 2 must be K = 8"):
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(2, 4, 9), transpose_b=True)
    with pytest.raises(CutileCppValueError, match=r"a \(f32\[3, 8\] on cpu\): expected 3 dims \(E\[Q, M, K\]\), got 2"):
        cutile_cpp.bmm(torch.randn(3, 8), torch.randn(8, 4))
    with pytest.raises(CutileCppValueError, match=r"c \(f32\[2, 3, 5\] on cpu\): dim 2 must be N = 4 \(N from b's "
                       r"dim 2\), got 5"):
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(2, 8, 4), c=torch.empty(2, 3, 5))
    with pytest.raises(CutileCppValueError, match=r"config is 3; it must satisfy config >= -1 && config < 3 \* "
                       r"static_persistent"):
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(2, 8, 4), config=3)
    with pytest.raises(CutileCppValueError, match=r"config is 0; it must satisfy"):  # the plain kernel has one tile
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(2, 8, 4), static_persistent=False, config=0)
    with pytest.raises(TypeError, match=r"b \(f16\[2, 8, 4\] on cpu\) and a \(f32\[2, 3, 8\] on cpu\) must have the "
                       r"same dtype"):
        cutile_cpp.bmm(torch.randn(2, 3, 8), torch.randn(2, 8, 4).half())
    with pytest.raises(TypeError, match=r"a \(i32\[2, 3, 8\] on cpu\): the op supports f32, f16, bf16"):
        cutile_cpp.bmm(torch.zeros(2, 3, 8, dtype=torch.int32), torch.zeros(2, 8, 4, dtype=torch.int32))
    x = torch.randn(2, 8, 8)
    with pytest.raises(CutileCppValueError, match=r"output c .* overlaps a"):
        cutile_cpp.bmm(x, torch.randn(2, 8, 8), c=x)


def test_abi_statuses(abi, status, desc):
    c, a, b = desc([2, 3, 4], device="CPU"), desc([2, 3, 8], device="CPU", data=0x100000), desc(
        [2, 8, 4], device="CPU", data=0x200000)
    call = lambda c, a, b, ta=0, tb=0, sp=1, config=-1: abi.cutile_cpp_bmm(ref(c), ref(a), ref(b), ta, tb, sp, config,
                                                                            0, None)
    assert call(c, a, desc([3, 8, 4], device="CPU", data=0x200000)) == status.SHAPE_MISMATCH
    assert last_error(abi) == "cutile_cpp_bmm: b (f32[3, 8, 4] on cpu): dim 0 must be Q = 2 (Q from a's dim 0), got 3"
    # a given transposed: M and K read from its (Q, K, M) storage
    assert call(c, desc([2, 8, 5], device="CPU", data=0x100000), b, ta=1) == status.SHAPE_MISMATCH
    assert last_error(abi) == ("cutile_cpp_bmm: c (f32[2, 3, 4] on cpu): dim 1 must be M = 5 (M from a's dim 2), "
                               "got 3")
    assert call(c, a, desc([2, 4, 9], device="CPU", data=0x200000), tb=1) == status.SHAPE_MISMATCH
    assert last_error(abi) == ("cutile_cpp_bmm: b (f32[2, 4, 9] on cpu) (given transposed: transpose_b): dim 2 must "
                               "be K = 8 (K from a's dim 2), got 9")
    assert call(c, desc([3, 8], device="CPU", data=0x100000), b) == status.RANK_MISMATCH
    assert call(c, a, desc([2, 8, 4], "F16", "CPU", data=0x200000)) == status.DTYPE_MISMATCH
    assert call(c, a, b, config=3) == status.INVALID_ARGUMENT
    assert last_error(abi).startswith("cutile_cpp_bmm: config is 3; it must satisfy")
    assert call(c, a, b, sp=0, config=0) == status.INVALID_ARGUMENT
    assert call(c, desc([2, 3, 8], device="CPU", data=0x10010), b) == status.ALIASING
    assert call(c, None, b) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_bmm: a: the descriptor is null"


def test_is_forward_only():
    a, b = torch.randn(2, 5, 4, requires_grad=True), torch.randn(2, 4, 3)
    with pytest.warns(UserWarning, match="cutile_cpp.bmm is forward-only: its inputs are detached"):
        c = cutile_cpp.bmm(a, b)
    assert not c.requires_grad


def test_traces_under_torch_compile_on_the_cpu():
    a, b = operands(2, 33, 17, 20, torch.float32)
    compiled = torch.compile(lambda x, y: cutile_cpp.bmm(x, y, transpose_b=True) * 2, backend="aot_eager",
                             fullgraph=True)
    c = compiled(a, b.transpose(1, 2).contiguous())
    assert c.shape == (2, 33, 17)
    assert_near_float64(c / 2, a, b)


# ---- TileGym's entry


def test_tilegym_registration(monkeypatch):
    tilegym = pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops  # noqa: F401
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401 (registers the backend)

    ours = dispatcher._REGISTRY["bmm"]["cutile-cpp"]
    assert str(inspect.signature(ours)) == "(a, b, transpose_a=False, transpose_b=False, static_persistent=True, **kwargs)"
    if dispatcher.has_backend_impl("bmm", "cutile"):
        assert parameters(ours) == parameters(dispatcher._REGISTRY["bmm"]["cutile"])
    calls = launched_ops(monkeypatch)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    a, b = operands(3, 40, 24, 33, torch.float32, device=device)
    # TileGym's defaults (static persistent), its kernel_configs (accepted, not taken), our own config by keyword
    assert_near_float64(tilegym.ops.bmm(a, b, backend="cutile-cpp"), a, b)
    c = tilegym.ops.bmm(a, b, static_persistent=False, kernel_configs={"TILE_M": 64}, backend="cutile-cpp")
    assert_near_float64(c, a, b)
    assert_near_float64(tilegym.ops.bmm(a, b, config=2, backend="cutile-cpp"), a, b)
    # transposes, on both kernels (TileGym's cuTile plain kernel refuses them; TileGym's test runs them on ours)
    at, bt = a.transpose(1, 2).contiguous(), b.transpose(1, 2).contiguous()
    for static_persistent in (True, False):
        c = tilegym.ops.bmm(at, bt, transpose_a=True, transpose_b=True, static_persistent=static_persistent,
                            backend="cutile-cpp")
        assert_near_float64(c, a, b)
    assert calls == ["bmm"] * 5


# ---- GPU: TileGym's tests/ops/test_bmm.py configurations and tolerance, and what it does not test


@needs_gpu
@pytest.mark.parametrize("static_persistent", [True, False])
@pytest.mark.parametrize("transpose_a, transpose_b", TRANSPOSES)
@pytest.mark.parametrize("m, n, k", [(128, 256, 511), (1024, 512, 1024), (128, 512, 1023)])
def test_gpu_matches_torch_at_tilegyms_configs(static_persistent, transpose_a, transpose_b, m, n, k):
    a, b = operands(4, m, n, k, torch.float16, transpose_a, transpose_b, "cuda", torch.rand)
    c = torch.full((4, m, n), float("nan"), device="cuda", dtype=torch.float16)  # a missed tile stays NaN
    cutile_cpp.bmm(a, b, transpose_a=transpose_a, transpose_b=transpose_b, static_persistent=static_persistent, c=c)
    want = torch.bmm(a.transpose(1, 2) if transpose_a else a, b.transpose(1, 2) if transpose_b else b)
    torch.testing.assert_close(c, want, rtol=1e-3, atol=1e-8)


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("static_persistent", [True, False])
@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, True)])
@pytest.mark.parametrize("q, m, n, k", [(2, 1000, 1001, 513), (8, 1024, 1024, 1024), (3, 8, 8, 8)])
def test_gpu_every_dtype(dtype, static_persistent, transpose_a, transpose_b, q, m, n, k):
    a, b = operands(q, m, n, k, dtype, transpose_a, transpose_b, "cuda")
    c = cutile_cpp.bmm(a, b, transpose_a=transpose_a, transpose_b=transpose_b, static_persistent=static_persistent)
    rtol = GPU_RTOL[dtype]
    torch.testing.assert_close(c, reference(a, b, transpose_a, transpose_b), rtol=rtol, atol=rtol * k**0.5)
    assert_near_float64(c, a, b, transpose_a, transpose_b)


@needs_gpu
@pytest.mark.parametrize("config", [-1, 0, 1, 2])
@pytest.mark.parametrize("dtype", FLOATS)
def test_gpu_every_tile_candidate(config, dtype):
    a, b = operands(3, 1000, 1030, 520, dtype, device="cuda")
    c = torch.full((3, 1000, 1030), float("nan"), device="cuda", dtype=dtype)
    cutile_cpp.bmm(a, b, config=config, c=c)
    assert_near_float64(c, a, b)


@needs_gpu
def test_gpu_compiles_without_graph_breaks():
    a, b = operands(2, 300, 200, 64, torch.float16, device="cuda")
    c = torch.compile(lambda x, y: cutile_cpp.bmm(x, y), fullgraph=True)(a, b)
    assert_near_float64(c, a, b)


@needs_gpu
@pytest.mark.parametrize("static_persistent", [True, False])
def test_gpu_empty_operands(static_persistent):
    # last in the file: a degenerate launch that failed would poison the process for what follows
    c = cutile_cpp.bmm(torch.randn(2, 3, 0, device="cuda"), torch.randn(2, 0, 4, device="cuda"),
                       static_persistent=static_persistent)
    assert torch.equal(c, torch.zeros(2, 3, 4, device="cuda"))
    c = cutile_cpp.bmm(torch.randn(0, 3, 5, device="cuda"), torch.randn(0, 5, 4, device="cuda"),
                       static_persistent=static_persistent)
    assert c.shape == (0, 3, 4)
