"""rope and rope_backward: their signatures; in place on q and k against the benchmarks' reference in float64 on
the CPU interpreter (every dtype, TileGym's layouts, partial rotation, 2-D and per-batch tables); autograd
(a new pair, q and k untouched) eager and compiled, and opcheck of both torch.library forms; errors of the
library, of Python and of the C ABI; TileGym's apply_rope_base and get_apply_rope_func; on the GPU, TileGym's
test configurations and tolerances against transformers / PyTorch, forward and backward."""

from __future__ import annotations

import importlib.util
import inspect

import pytest
import torch

import cutile_cpp
from support import GPU_COUNT, bench_spec, last_error, needs_gpu, ref

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
# The rotation computed in the dtype: a product and an fma per element, each rounded, of terms up to |x| ≈ 5.
CPU_TOLERANCE = {torch.float32: 2e-6, torch.float16: 4e-3, torch.bfloat16: 3e-2}
spec = bench_spec("rope")


def tables(batch, seq, rope_dim, dtype, device="cpu", per_batch=False):
    """HuggingFace-style cos/sin of shape (1 | B, S, R): angles position · base^(-2i/R), halves repeated,
    positions shifted per batch when per_batch."""
    inv_freq = 10000.0 ** (-torch.arange(0, rope_dim, 2, dtype=torch.float64, device=device) / rope_dim)
    positions = torch.arange(seq, dtype=torch.float64, device=device)[None, :] + (
        7 * torch.arange(batch if per_batch else 1, dtype=torch.float64, device=device)[:, None]
    )
    freqs = positions[..., None] * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def heads_view(batch, seq, heads, head_dim, dtype, device="cpu", transposed=True):
    """A (B, H, S, D) tensor: TileGym's transpose of a (B, S, H, D) buffer, or contiguous."""
    if transposed:
        return torch.randn(batch, seq, heads, head_dim, device=device).transpose(1, 2).to(dtype)
    return torch.randn(batch, heads, seq, head_dim, device=device).to(dtype)


def reference(x, cos, sin, rope_dim):
    """The benchmarks' rotation in float64 of x's first R head dims (the rest unchanged), by tables of (S, R) or
    (1 | B, S, R) whose halves repeat."""
    x64 = x.double()
    c, s = cos.double()[..., :rope_dim], sin.double()[..., :rope_dim]
    if c.dim() == 2:
        c, s = c[None], s[None]
    rotated, _ = spec.reference(x64[..., :rope_dim], x64[..., :rope_dim], c, s)
    return torch.cat((rotated, x64[..., rope_dim:]), dim=-1)


def test_signatures():
    assert str(inspect.signature(cutile_cpp.rope)) == "(q, k, cos, sin, rope_dim)"
    assert str(inspect.signature(cutile_cpp.rope_backward)) == "(dq, dk, cos, sin, rope_dim)"


CPU_CASES = [
    # batch, seq, q heads, k heads, head dim, rope dim, q/k transposed (B, S, H, D) buffers, per-batch table
    (2, 5, 4, 2, 16, 16, True, True),
    (3, 7, 5, 3, 24, 16, True, False),  # ragged heads, partial rotation
    (2, 3, 2, 6, 32, 32, False, False),  # contiguous with B > 1: one launch per batch; more k heads than q
    (1, 9, 3, 1, 40, 16, False, True),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", CPU_CASES)
def test_rope_in_place_on_the_cpu_interpreter(dtype, case):
    b, s, hq, hk, d, r, transposed, per_batch = case
    q = heads_view(b, s, hq, d, dtype, transposed=transposed)
    k = heads_view(b, s, hk, d, dtype, transposed=transposed)
    cos, sin = tables(b, s, r, dtype, per_batch=per_batch)
    want_q, want_k = reference(q, cos, sin, r), reference(k, cos, sin, r)
    q_before, k_before = q.clone(), k.clone()
    q_out, k_out = cutile_cpp.rope(q, k, cos, sin, r)
    assert q_out is q and k_out is k
    tol = CPU_TOLERANCE[dtype]
    torch.testing.assert_close(q.double(), want_q, atol=tol, rtol=tol)
    torch.testing.assert_close(k.double(), want_k, atol=tol, rtol=tol)
    assert torch.equal(q[..., r:], q_before[..., r:]) and torch.equal(k[..., r:], k_before[..., r:])
    # rope_backward rotates back by the opposite angles.
    dq, dk = cutile_cpp.rope_backward(q, k, cos, sin, r)
    assert dq is q and dk is k
    torch.testing.assert_close(q.double(), q_before.double(), atol=2 * tol, rtol=2 * tol)
    torch.testing.assert_close(k.double(), k_before.double(), atol=2 * tol, rtol=2 * tol)


def test_rope_takes_a_two_dimensional_table_and_the_first_half_of_wider_ones():
    q, k = heads_view(2, 6, 2, 16, torch.float32), heads_view(2, 6, 1, 16, torch.float32)
    cos, sin = tables(1, 6, 16, torch.float32)
    want_q = reference(q, cos, sin, 16)
    cutile_cpp.rope(q, k, cos[0, :, :8], sin[0, :, :8], 16)  # (S, R/2): the distinct angles only
    torch.testing.assert_close(q.double(), want_q, atol=2e-6, rtol=2e-6)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_autograd_on_the_cpu_interpreter(dtype):
    b, s, hq, hk, d, r = 2, 5, 4, 2, 32, 16
    q = heads_view(b, s, hq, d, dtype).requires_grad_(True)
    k = heads_view(b, s, hk, d, dtype).requires_grad_(True)
    cos, sin = tables(b, s, r, dtype, per_batch=True)
    q_in, k_in = q.detach().clone(), k.detach().clone()
    q_out, k_out = cutile_cpp.rope(q, k, cos, sin, r)
    assert q_out is not q and torch.equal(q.detach(), q_in) and torch.equal(k.detach(), k_in)
    assert q_out.stride() == q.stride() and q_out.dtype == dtype
    grad_q, grad_k = torch.randn_like(q_out), torch.randn_like(k_out)
    ((q_out * grad_q).sum() + (k_out * grad_k).sum()).backward()

    q64 = q_in.double().requires_grad_(True)
    k64 = k_in.double().requires_grad_(True)
    loss = (reference(q64, cos, sin, r) * grad_q.double()).sum() + (reference(k64, cos, sin, r) * grad_k.double()).sum()
    loss.backward()
    tol = CPU_TOLERANCE[dtype]
    torch.testing.assert_close(q.grad.double(), q64.grad, atol=tol, rtol=tol)
    torch.testing.assert_close(k.grad.double(), k64.grad, atol=tol, rtol=tol)


def test_opcheck_on_the_cpu_interpreter():
    q, k = heads_view(1, 3, 2, 16, torch.float32), heads_view(1, 3, 1, 16, torch.float32)
    cos, sin = tables(1, 3, 16, torch.float32)
    torch.library.opcheck(torch.ops.cutile_cpp.rope.default, (q, k, cos, sin, 16))
    torch.library.opcheck(torch.ops.cutile_cpp.rope_functional.default, (q.requires_grad_(True), k, cos, sin, 16))


def test_under_torch_compile_on_the_cpu_interpreter():
    # aot_eager: dynamo and AOTAutograd trace the custom ops (forward, backward, in-place write-back).
    q, k = heads_view(2, 5, 4, 32, torch.float32), heads_view(2, 5, 2, 32, torch.float32)
    cos, sin = tables(2, 5, 32, torch.float32, per_batch=True)
    rotated = torch.compile(lambda q, k, c, s: cutile_cpp.rope(q, k, c, s, 32), fullgraph=True, backend="aot_eager")
    q_grad, k_grad = q.clone().requires_grad_(True), k.clone().requires_grad_(True)
    out_q, out_k = rotated(q_grad, k_grad, cos, sin)
    torch.testing.assert_close(out_q.double(), reference(q, cos, sin, 32), atol=2e-6, rtol=2e-6)
    (out_q.sum() + out_k.sum()).backward()
    want_grad = reference(torch.ones_like(q), cos, -sin, 32)
    torch.testing.assert_close(q_grad.grad.double(), want_grad, atol=2e-6, rtol=2e-6)
    q_in, k_in = q.clone(), k.clone()
    with torch.no_grad():
        rotated(q_in, k_in, cos, sin)
    torch.testing.assert_close(q_in.double(), reference(q, cos, sin, 32), atol=2e-6, rtol=2e-6)
    torch.testing.assert_close(k_in.double(), reference(k, cos, sin, 32), atol=2e-6, rtol=2e-6)


def test_argument_checks():
    q, k = heads_view(2, 4, 2, 16, torch.float32), heads_view(2, 4, 2, 16, torch.float32)
    cos, sin = tables(1, 4, 16, torch.float32)
    with pytest.raises(TypeError, match=r"cutile_cpp.rope: cos must be a torch.Tensor, got list"):
        cutile_cpp.rope(q, k, [1.0], sin, 16)
    with pytest.raises(TypeError, match=r"cutile_cpp.rope: rope_dim must be an integer, got float"):
        cutile_cpp.rope(q, k, cos, sin, 16.0)
    with pytest.raises(ValueError, match=r"cutile_cpp.rope: q is on meta"):
        cutile_cpp.rope(q.to("meta"), k, cos, sin, 16)
    with pytest.raises(
        cutile_cpp.CutileCppTypeError,
        match=r"cutile_cpp_rope: k \(i32\[2, 2, 4, 16\] on cpu\): the op supports f32, f16, bf16",
    ):
        cutile_cpp.rope(q, k.int(), cos, sin, 16)
    with pytest.raises(
        cutile_cpp.CutileCppTypeError,
        match=r"cutile_cpp_rope: cos \(f16\[1, 4, 16\] on cpu\) and q \(f32\[2, 2, 4, 16\] on cpu\) must have the",
    ):
        cutile_cpp.rope(q, k, cos.half(), sin.half(), 16)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_rope: q \(f32\[2, 4, 16\] on cpu\): expected 4 dims \(E\[B, HQ, S, D\]\), got 3",
    ):
        cutile_cpp.rope(q[0], k, cos, sin, 16)
    with pytest.raises(
        cutile_cpp.CutileCppValueError, match=r"cutile_cpp_rope: sin \(f32\[1, 4, 8\] on cpu\): dim 2 must be W = 16"
    ):
        cutile_cpp.rope(q, k, cos, sin[..., :8], 16)
    with pytest.raises(
        cutile_cpp.CutileCppValueError, match=r"cutile_cpp_rope: k \(f32\[2, 2, 5, 16\] on cpu\): dim 2 must be S = 4"
    ):
        cutile_cpp.rope(q, heads_view(2, 5, 2, 16, torch.float32), cos, sin, 16)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_rope: rope_dim is 18; it must satisfy rope_dim >= 2 && rope_dim % 2 == 0 && rope_dim <= D",
    ):
        cutile_cpp.rope(q, k, cos, sin, 18)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_rope: requires W >= rope_dim / 2 \(W = 4 from cos's dim 2\): the rotation reads the first",
    ):
        cutile_cpp.rope(q, k, cos[..., :4], sin[..., :4], 16)
    cos3, sin3 = tables(3, 4, 16, torch.float32, per_batch=True)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"cutile_cpp_rope: requires CB == 1 \|\| CB == B \(CB = 3 from cos's dim 0, B = 2 from q's dim 0\)",
    ):
        cutile_cpp.rope(q, k, cos3, sin3, 16)


def test_errors_of_the_kernels_limits():
    q, k = heads_view(1, 4, 2, 24, torch.float32), heads_view(1, 4, 2, 24, torch.float32)
    cos, sin = tables(1, 4, 24, torch.float32)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"requires pow2\(rope_dim / 2\) && rope_dim >= 16 && rope_dim <= 256: the kernels take R/2 a power of",
    ):
        cutile_cpp.rope(q, k, cos, sin, 24)
    cos, sin = tables(1, 4, 16, torch.float32)
    with pytest.raises(
        cutile_cpp.CutileCppValueError,
        match=r"requires HQ >= 1 && HK >= 1 && max\(HQ, HK\) <= 128 \(HQ = 129 from q's dim 1",
    ):
        cutile_cpp.rope(heads_view(1, 4, 129, 16, torch.float32), heads_view(1, 4, 1, 16, torch.float32), cos, sin, 16)
    qk = heads_view(1, 4, 4, 16, torch.float32)
    with pytest.raises(cutile_cpp.CutileCppValueError, match=r"cutile_cpp_rope: output q .* overlaps k"):
        cutile_cpp.rope(qk[:, :3], qk[:, 2:], cos, sin, 16)  # head 2 in both


def test_heads_of_one_buffer_that_share_no_element_rotate_in_place():
    # q and k are heads 0-1 and 2-3 of one (B, S, H, D) buffer: their rows interleave in memory, their
    # elements do not, so neither is an alias of the other.
    qk = heads_view(1, 4, 4, 16, torch.float32)
    cos, sin = tables(1, 4, 16, torch.float32)
    want = reference(qk, cos, sin, 16)
    cutile_cpp.rope(qk[:, :2], qk[:, 2:], cos, sin, 16)
    torch.testing.assert_close(qk.double(), want, atol=CPU_TOLERANCE[torch.float32], rtol=CPU_TOLERANCE[torch.float32])


def test_abi_statuses(abi, status, desc):
    def rope(q, k, c, s, rope_dim=64):
        return abi.cutile_cpp_rope(ref(q), ref(k), ref(c), ref(s), rope_dim, 0, None)

    q, k = desc([1, 8, 16, 64]), desc([1, 2, 16, 64], data=0x200000)
    c, s = desc([1, 16, 64], data=0x400000), desc([1, 16, 64], data=0x500000)
    assert rope(q, k, desc([16, 64], data=0x400000), s) == status.RANK_MISMATCH
    assert last_error(abi) == "cutile_cpp_rope: cos (f32[16, 64] on cuda:0): expected 3 dims (E[CB, S, W]), got 2"
    assert rope(q, desc([1, 2, 15, 64], data=0x200000), c, s) == status.SHAPE_MISMATCH
    assert last_error(abi).startswith("cutile_cpp_rope: k (f32[1, 2, 15, 64] on cuda:0): dim 2 must be S = 16")
    assert rope(q, k, desc([2, 16, 64], data=0x400000), desc([2, 16, 64], data=0x500000)) == status.SHAPE_MISMATCH
    assert "requires CB == 1 || CB == B" in last_error(abi)
    assert rope(q, k, c, s, rope_dim=65) == status.INVALID_ARGUMENT
    assert last_error(abi) == (
        "cutile_cpp_rope: rope_dim is 65; it must satisfy rope_dim >= 2 && rope_dim % 2 == 0 && rope_dim <= D"
    )
    assert rope(q, k, c, s, rope_dim=8) == status.UNSUPPORTED_SHAPE
    assert "the kernels take R/2 a power of two in [8, 128]" in last_error(abi)
    assert rope(q, k, c, desc([1, 16, 64], dtype="F16", data=0x500000)) == status.DTYPE_MISMATCH
    assert rope(q, desc([1, 2, 16, 64], data=0x10000), c, s) == status.ALIASING
    code = abi.cutile_cpp_rope_backward(ref(q), ref(k), ref(desc([1, 16, 31], data=0x400000)),
                                        ref(desc([1, 16, 31], data=0x500000)), 64, 0, None)
    assert code == status.SHAPE_MISMATCH and "requires W >= rope_dim / 2" in last_error(abi)


# ---- TileGym's apply_rope_base and get_apply_rope_func


@pytest.mark.parametrize("name", ["apply_rope_base", "get_apply_rope_func"])
def test_tilegym_registrations_have_cutiles_signatures(tilegym, name):
    from tilegym.backend import dispatcher

    ours = dispatcher._REGISTRY[name]["cutile-cpp"]
    assert ours.__module__ == "cutile_cpp.tilegym.rope"
    if not dispatcher.has_backend_impl(name, "cutile"):
        pytest.skip("TileGym's cutile backend is not importable here (cuda.tile missing)")
    theirs = dispatcher._REGISTRY[name]["cutile"]
    assert [(p.name, p.kind, p.default) for p in inspect.signature(ours).parameters.values()] == [
        (p.name, p.kind, p.default) for p in inspect.signature(theirs).parameters.values()
    ]


def test_apply_rope_base_runs_our_kernel_in_place(tilegym):
    device = "cuda" if GPU_COUNT else "cpu"
    q = torch.randn(2, 6, 4, 32, device=device).transpose(1, 2)  # TileGym's (B, H, S, D) views
    k = torch.randn(2, 6, 2, 32, device=device).transpose(1, 2)
    cos, sin = tables(1, 6, 32, torch.float32, device)
    want_q, want_k = reference(q, cos, sin, 32), reference(k, cos, sin, 32)
    out_q, out_k = tilegym.ops.apply_rope_base(q, k, cos, sin, backend="cutile-cpp")
    assert out_q is q and out_k is k
    torch.testing.assert_close(q.double(), want_q, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(k.double(), want_k, atol=1e-5, rtol=1e-5)

    cos16, sin16 = tables(1, 6, 16, torch.float32, device)
    want_q = reference(q, cos16[0], sin16[0], 16)
    tilegym.ops.apply_rope_base(q, k, cos16[0], sin16[0], partial_rotary_factor=0.5, backend="cutile-cpp")  # (S, R)
    torch.testing.assert_close(q.double(), want_q, atol=1e-5, rtol=1e-5)
    with pytest.raises(ValueError, match=r"cos has 32 columns; head_dim 32 with partial_rotary_factor 0.5 rotates 16"):
        tilegym.ops.apply_rope_base(q, k, cos, sin, partial_rotary_factor=0.5, backend="cutile-cpp")


def test_get_apply_rope_func_per_model(tilegym):
    from tilegym.backend import dispatcher

    device = "cuda" if GPU_COUNT else "cpu"
    get = dispatcher._REGISTRY["get_apply_rope_func"]["cutile-cpp"]
    for model in ("llama", "qwen2", "gemma3", "gpt-oss"):
        assert get(model) is dispatcher._REGISTRY["apply_rope_base"]["cutile-cpp"]
    with pytest.raises(ValueError, match="Unsupported model: gpt-2"):
        get("gpt-2")

    q, k = torch.randn(1, 2, 5, 64, device=device), torch.randn(1, 1, 5, 64, device=device)
    cos, sin = tables(1, 5, 16, torch.float32, device)
    want_q = reference(q, cos, sin, 16)
    get("qwen3_5")(q, k, cos, sin)  # a quarter of the head dims rotate
    torch.testing.assert_close(q.double(), want_q, atol=1e-5, rtol=1e-5)

    # DeepSeek: interleaved (re, im) pairs times e^{iθ}; the result comes back as (re..., im...) halves.
    angles = torch.arange(5, dtype=torch.float64, device=device)[:, None] * torch.linspace(0.1, 1, 16, device=device)
    freqs_cis = torch.polar(torch.ones_like(angles), angles).to(torch.complex64)  # (S, D/2)
    q, k = torch.randn(1, 2, 5, 32, device=device), torch.randn(1, 1, 5, 32, device=device)
    pairs = [torch.view_as_complex(x.double().reshape(*x.shape[:-1], 16, 2).contiguous()) for x in (q, k)]
    want = [p * freqs_cis.to(torch.complex128) for p in pairs]
    got = get("deepseek")(q, k, freqs_cis)
    for g, w in zip(got, want):
        torch.testing.assert_close(g.double(), torch.cat((w.real, w.imag), dim=-1), atol=1e-5, rtol=1e-5)


# ---- GPU: TileGym's configurations (tests/ops/test_rope.py) and tolerances


def hf_reference(q, k, cos, sin, rope_dim):
    """transformers' apply_rotary_pos_emb when installed (full rotation), else the benchmarks' reference, in
    the input dtype as TileGym's references compute it."""
    if rope_dim == q.shape[-1] and importlib.util.find_spec("transformers") is not None:
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

        return apply_rotary_pos_emb(q, k, cos, sin)
    rot = spec.reference(q[..., :rope_dim], k[..., :rope_dim], cos, sin)
    return tuple(torch.cat((r, x[..., rope_dim:]), dim=-1) for r, x in zip(rot, (q, k)))


FORWARD_CONFIGS = [
    (1, 128, 32, 32, 64, 1.0),
    (2, 128, 32, 32, 64, 1.0),
    (1, 128, 32, 8, 64, 1.0),
    (2, 128, 32, 8, 64, 1.0),
    (1, 128, 32, 8, 256, 0.25),
    (2, 128, 32, 8, 256, 0.25),
    (1, 128, 32, 32, 128, 0.5),
    (2, 128, 32, 8, 128, 0.5),
    (1, 4096, 16, 16, 64, 1.0),  # the benchmark's shape
]
BACKWARD_CONFIGS = [
    (1, 128, 32, 32, 64, 1.0),
    (2, 128, 32, 8, 64, 1.0),
    (1, 512, 16, 16, 128, 1.0),
    (1, 128, 32, 8, 256, 0.25),
    (2, 128, 32, 8, 128, 0.5),
]


def gpu_inputs(b, s, hq, hk, d, factor, dtype):
    r = int(d * factor)
    q = heads_view(b, s, hq, d, dtype, device="cuda")
    k = heads_view(b, s, hk, d, dtype, device="cuda")
    cos, sin = tables(b, s, r, dtype, device="cuda", per_batch=True)
    return q, k, cos, sin, r


@needs_gpu
# bf16 (which TileGym's rope tests skip): transformers rounds x·cos and x·sin to bf16 before adding, ours
# rounds once, so near-zero results differ by up to one ulp of the products (2^-7 at |x·cos| ~ 1).
@pytest.mark.parametrize("dtype, tol", [(torch.float32, 1e-5), (torch.float16, 1e-2), (torch.bfloat16, 2e-2)])
@pytest.mark.parametrize("config", FORWARD_CONFIGS)
def test_gpu_matches_transformers(config, dtype, tol):
    q, k, cos, sin, r = gpu_inputs(*config, dtype)
    want_q, want_k = hf_reference(q.clone(), k.clone(), cos, sin, r)
    exact_q, exact_k = reference(q, cos, sin, r), reference(k, cos, sin, r)
    q_out, k_out = cutile_cpp.rope(q, k, cos, sin, r)
    assert q_out is q and k_out is k
    torch.testing.assert_close(q, want_q, atol=tol, rtol=tol)
    torch.testing.assert_close(k, want_k, atol=tol, rtol=tol)
    in_dtype = CPU_TOLERANCE[dtype]
    torch.testing.assert_close(q.double(), exact_q, atol=in_dtype, rtol=in_dtype)
    torch.testing.assert_close(k.double(), exact_k, atol=in_dtype, rtol=in_dtype)


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
def test_gpu_contiguous_heads_run_per_batch(dtype):
    q = heads_view(3, 50, 6, 64, dtype, device="cuda", transposed=False)
    k = heads_view(3, 50, 2, 64, dtype, device="cuda", transposed=False)
    cos, sin = tables(3, 50, 64, dtype, device="cuda", per_batch=True)
    want_q, want_k = reference(q, cos, sin, 64), reference(k, cos, sin, 64)
    cutile_cpp.rope(q, k, cos, sin, 64)
    tol = CPU_TOLERANCE[dtype]
    torch.testing.assert_close(q.double(), want_q, atol=tol, rtol=tol)
    torch.testing.assert_close(k.double(), want_k, atol=tol, rtol=tol)


@needs_gpu
@pytest.mark.parametrize("dtype, tol", [(torch.float32, 1e-5), (torch.float16, 2e-2), (torch.bfloat16, 2e-2)])
@pytest.mark.parametrize("config", BACKWARD_CONFIGS)
def test_gpu_backward_matches_autograd_of_the_reference(config, dtype, tol):
    q, k, cos, sin, r = gpu_inputs(*config, dtype)
    q_ref, k_ref = q.clone().requires_grad_(True), k.clone().requires_grad_(True)
    q_tt, k_tt = q.clone().requires_grad_(True), k.clone().requires_grad_(True)
    ref_q, ref_k = hf_reference(q_ref, k_ref, cos, sin, r)
    tt_q, tt_k = cutile_cpp.rope(q_tt, k_tt, cos, sin, r)
    grad_q, grad_k = torch.randn_like(ref_q), torch.randn_like(ref_k)
    ((ref_q * grad_q).sum() + (ref_k * grad_k).sum()).backward()
    ((tt_q * grad_q).sum() + (tt_k * grad_k).sum()).backward()
    torch.testing.assert_close(q_tt.grad, q_ref.grad, atol=tol, rtol=tol)
    torch.testing.assert_close(k_tt.grad, k_ref.grad, atol=tol, rtol=tol)


@needs_gpu
def test_gpu_under_torch_compile_forward_and_backward():
    q, k, cos, sin, r = gpu_inputs(2, 64, 8, 2, 128, 0.5, torch.float16)
    want_q, want_k = reference(q, cos, sin, r), reference(k, cos, sin, r)

    @torch.compile(fullgraph=True)
    def rotated(q, k, cos, sin):
        return cutile_cpp.rope(q, k, cos, sin, r)

    q_grad, k_grad = q.clone().requires_grad_(True), k.clone().requires_grad_(True)
    out_q, out_k = rotated(q_grad, k_grad, cos, sin)
    torch.testing.assert_close(out_q.double(), want_q, atol=1e-3, rtol=1e-3)
    (out_q.float().sum() + out_k.float().sum()).backward()
    ones_q = torch.ones_like(q)
    want_grad_q = reference(ones_q, cos, -sin, r)  # the inverse rotation of the incoming gradient
    torch.testing.assert_close(q_grad.grad.double(), want_grad_q, atol=1e-3, rtol=1e-3)
    assert k_grad.grad.shape == k.shape

    q_in, k_in = q.clone(), k.clone()
    with torch.no_grad():
        rotated(q_in, k_in, cos, sin)  # the in-place op, functionalised and written back
    torch.testing.assert_close(q_in.double(), want_q, atol=1e-3, rtol=1e-3)
    torch.testing.assert_close(k_in.double(), want_k, atol=1e-3, rtol=1e-3)


@needs_gpu
def test_gpu_opcheck():
    q, k, cos, sin, r = gpu_inputs(2, 16, 4, 2, 64, 1.0, torch.float32)
    torch.library.opcheck(torch.ops.cutile_cpp.rope.default, (q, k, cos, sin, r))
    torch.library.opcheck(torch.ops.cutile_cpp.rope_functional.default, (q.requires_grad_(True), k, cos, sin, r))


@needs_gpu
def test_gpu_refuses_mixed_devices():
    q, k, cos, sin, r = gpu_inputs(1, 8, 2, 2, 16, 1.0, torch.float32)
    with pytest.raises(cutile_cpp.CutileCppValueError, match=r"cutile_cpp_rope: .*cos"):
        cutile_cpp.rope(q, k, cos.cpu(), sin.cpu(), r)
