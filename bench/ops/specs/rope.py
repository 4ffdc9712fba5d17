"""rope: rotary position embedding of q and k, in place."""

import torch

from configs import Config, OpSpec, numel_bytes, tilegym_call


def tables(seq_len, head_dim, dtype, device, base=10000.0):
    """HuggingFace's (S, D) cos and sin tables, their halves repeated."""
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=device) / head_dim))
    angles = torch.outer(torch.arange(seq_len, device=device, dtype=torch.float32), inv)
    cos, sin = torch.cos(angles).to(dtype), torch.sin(angles).to(dtype)
    return torch.cat([cos, cos], dim=-1), torch.cat([sin, sin], dim=-1)


def _rotate_half(t):
    h = t.shape[-1] // 2
    return torch.cat((-t[..., h:], t[..., :h]), dim=-1)


def reference(q, k, cos, sin):
    """(q, k) rotated, for (B, H, S, D) q and k and (B | 1, S, D) cos and sin."""
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def _build(p, device):
    b, h, s, d, dtype = p["B"], p["H"], p["S"], p["D"], p["dtype"]
    cos, sin = tables(s, d, dtype, device)
    return {
        "q": torch.randn(b, h, s, d, device=device, dtype=dtype),
        "k": torch.randn(b, h, s, d, device=device, dtype=dtype),
        "cos": cos.unsqueeze(0).expand(b, -1, -1),
        "sin": sin.unsqueeze(0).expand(b, -1, -1),
        "pos": torch.arange(s, device=device, dtype=torch.long).unsqueeze(0).expand(b, -1),
    }


def _call(backend, p, x):
    """The kernels rotate q and k in place: timing calls them on the same buffers again and again (a
    rotation keeps the values bounded), where TileGym's benchmark times q.clone() and k.clone() too; the
    check gives each backend fresh clones."""
    if backend == "pytorch":
        return lambda: reference(x["q"], x["k"], x["cos"], x["sin"])
    return tilegym_call("apply_rope_base", backend, x["q"], x["k"], x["cos"], x["sin"], x["pos"])


def _check(out, p, x):
    q_ref, k_ref = reference(x["q0"], x["k0"], x["cos"], x["sin"])
    torch.testing.assert_close(out[0], q_ref, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(out[1], k_ref, rtol=1e-2, atol=1e-2)


SPEC = OpSpec(
    name="rope",
    tilegym_op="apply_rope_base",
    family="position",
    source="tests/benchmark/bench_rope.py: B 1, H 16, S 4096..32768, D 64, f16; q, k = randn (B, H, S, D), cos/sin "
    "tables expanded over B; tol (1e-2, 1e-2); bytes = 2q + 2k + cos + sin; timed in place without the clones",
    metric="GB/s",
    configs=[Config({"B": 1, "H": 16, "S": 2**i, "D": 64, "dtype": torch.float16}, quick=i in (12, 15))
             for i in range(12, 16)],
    tiny={"B": 1, "H": 2, "S": 8, "D": 64, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=_check,
    amount=lambda p, x: (2 * numel_bytes(x["q"]) + 2 * numel_bytes(x["k"])  # q, k read and written
                         + 2 * p["B"] * p["S"] * p["D"] * x["q"].element_size()),  # cos, sin
    triton=True,
    in_place=("q", "k"),
)
