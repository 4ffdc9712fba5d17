"""TileGym's apply_rope_base and get_apply_rope_func on cutile_cpp.rope: the rotary width from
partial_rotary_factor, and the rope function of each model family."""

from __future__ import annotations

from tilegym.backend import register_impl

from .. import ops
from . import BACKEND


@register_impl("apply_rope_base", backend=BACKEND)
def apply_rope_base(q, k, cos, sin, position_ids=None, unsqueeze_dim=1, partial_rotary_factor=1.0):
    """TileGym's apply_rope_base: q (B, Hq, S, D) and k (B, Hk, S, D) rotated in place by cos/sin of shape
    (S, W), (1, S, W) or (B, S, W) and returned. The first R head dims rotate, R = D, or
    int(D * partial_rotary_factor) when the factor is below 1 (then W must be R; the dims past R pass
    through). position_ids and unsqueeze_dim are accepted and unused, as in TileGym. Under autograd the
    pair is new and q, k are left as they are (cutile_cpp.rope)."""
    head_dim = q.shape[-1]
    rope_dim = head_dim
    if partial_rotary_factor < 1.0:
        rope_dim = int(head_dim * partial_rotary_factor)
        if cos.shape[-1] != rope_dim:
            raise ValueError(
                f"apply_rope_base: cos has {cos.shape[-1]} columns; head_dim {head_dim} with partial_rotary_factor "
                f"{partial_rotary_factor} rotates {rope_dim}"
            )
    return ops.rope(q, k, cos, sin, rope_dim)


@register_impl("get_apply_rope_func", backend=BACKEND)
def get_apply_rope_func(model="llama"):
    """TileGym's RoPE entry per model family: apply_rope_base itself, a quarter rotation for Qwen3.5, and
    for DeepSeek a function of (q, k, freqs_cis) whose interleaved (re, im) head dims are regrouped into
    halves before the rotation."""
    if model in ("llama", "qwen2", "gemma3", "gpt-oss"):
        return apply_rope_base
    if model == "qwen3_5":

        def apply_quarter_rope(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
            return apply_rope_base(q, k, cos, sin, partial_rotary_factor=0.25)

        return apply_quarter_rope
    if model == "deepseek":

        def apply_complex_rope(q, k, freqs_cis):
            def halves(x):  # (..., D) as D/2 (re, im) pairs -> (re..., im...)
                b, h, s, d = x.shape
                return x.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)

            # freqs_cis holds the D/2 distinct angles: exactly the half of cos/sin the kernel reads.
            cos, sin = freqs_cis.real.to(q.dtype), freqs_cis.imag.to(q.dtype)
            return apply_rope_base(halves(q), halves(k), cos, sin)

        return apply_complex_rope
    raise ValueError(f"Unsupported model: {model}")
