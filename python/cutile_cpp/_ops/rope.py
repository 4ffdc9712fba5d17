"""Rotary position embedding, in place on q and k: cutile_cpp_rope."""

from __future__ import annotations

import torch

from .. import _tensor
from . import _common


def _rope_(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int) -> None:
    _tensor.call("cutile_cpp_rope", [q, k, cos, sin], ["q", "k", "cos", "sin"], (rope_dim,))


@torch.library.custom_op("cutile_cpp::rope_", mutates_args=("q", "k"))
def _rope_inplace_op(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int
) -> None:
    _rope_(q, k, cos, sin, rope_dim)


@_rope_inplace_op.register_fake
def _rope_inplace_fake(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int
) -> None:
    return None


def _rows_layout_copy(x: torch.Tensor) -> torch.Tensor:
    """A copy of a (B, H, S, D) tensor laid out as the transpose of a contiguous (B, S, H, D) one, whose
    batch and position fold into one row index: the kernel covers it in one launch."""
    return x.transpose(1, 2).contiguous().transpose(1, 2)


# The functional form autograd differentiates: rotated copies of q and k (laid out as q and k), q and k
# themselves untouched.
@torch.library.custom_op("cutile_cpp::rope", mutates_args=())
def _rope_op(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int
) -> tuple[torch.Tensor, torch.Tensor]:
    q_out, k_out = q.clone(), k.clone()
    _rope_(q_out, k_out, cos, sin, rope_dim)
    return q_out, k_out


@_rope_op.register_fake
def _rope_fake(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int):
    return torch.empty_like(q), torch.empty_like(k)


def _rope_setup_context(ctx, inputs, output) -> None:
    _, _, cos, sin, rope_dim = inputs
    ctx.save_for_backward(cos, sin)
    ctx.rope_dim = rope_dim


def _rope_backward(ctx, grad_q: torch.Tensor, grad_k: torch.Tensor):
    # The rotation is orthogonal: its transpose is the rotation by −angle, i.e. the same kernel with −sin,
    # applied in place to copies of the incoming gradients.
    cos, sin = ctx.saved_tensors
    grad_q, grad_k = _rows_layout_copy(grad_q), _rows_layout_copy(grad_k)
    torch.ops.cutile_cpp.rope_(grad_q, grad_k, cos, torch.neg(sin), ctx.rope_dim)
    return grad_q, grad_k, None, None, None


_rope_op.register_autograd(_rope_backward, setup_context=_rope_setup_context)


def _check(q, k, cos, sin) -> None:
    for name, value in (("q", q), ("k", k), ("cos", cos), ("sin", sin)):
        _common.check_tensor("rope", name, value)
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError(
            f"cutile_cpp.rope: q and k must be 4-D (B, H, S, D), got shapes {tuple(q.shape)} and {tuple(k.shape)}"
        )
    if cos.dim() not in (2, 3) or cos.shape != sin.shape:
        raise ValueError(
            f"cutile_cpp.rope: cos and sin must share a shape (S, R) or (1 | B, S, R), got {tuple(cos.shape)} "
            f"and {tuple(sin.shape)}"
        )
    if not q.dtype == k.dtype == cos.dtype == sin.dtype:
        raise TypeError(
            f"cutile_cpp.rope: q, k, cos and sin must share a dtype, got {q.dtype}, {k.dtype}, {cos.dtype} "
            f"and {sin.dtype}"
        )
    if not q.device == k.device == cos.device == sin.device:
        raise ValueError(
            f"cutile_cpp.rope: q, k, cos and sin must be on one device, got {q.device}, {k.device}, "
            f"{cos.device} and {sin.device}"
        )


def rope(
    q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rope_dim: int | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotary position embedding (HuggingFace Llama form) of the first R = rope_dim head dims (default: all
    D): x[..., :R] = x[..., :R]·cos + rotate_half(x[..., :R])·sin, the dims past R unchanged, computed in
    the input dtype (as TileGym). Only cos[..., :R/2] and sin[..., :R/2] are read (in the HuggingFace tables the halves repeat).

    q: (B, Hq, S, D), k: (B, Hk, S, D); cos, sin: (S, W), (1, S, W) or (B, S, W) with W ≥ R/2; one dtype
    (float32, float16 or bfloat16) and device; R even, ≤ D, R/2 a power of two in [8, 128]; max(Hq, Hk) ≤ 128.

    Without autograd, q and k are rotated in place and returned (the same objects). When q or k requires
    grad (and grad mode is on), the result is a new pair laid out like q and k, and q and k are left as they
    are; the backward applies the inverse rotation (the same kernel with −sin) to the gradients."""
    _check(q, k, cos, sin)
    if rope_dim is None:
        rope_dim = q.shape[-1]
    if not isinstance(rope_dim, int) or rope_dim <= 0 or rope_dim % 2 or rope_dim > q.shape[-1]:
        raise ValueError(
            f"cutile_cpp.rope: rope_dim must be an even int in [2, head_dim {q.shape[-1]}], got {rope_dim!r}"
        )
    if cos.shape[-1] < rope_dim // 2:
        raise ValueError(
            f"cutile_cpp.rope: rope_dim {rope_dim} reads the first {rope_dim // 2} columns of cos and sin, "
            f"which have {cos.shape[-1]}"
        )
    if torch.is_grad_enabled() and (q.requires_grad or k.requires_grad):
        return torch.ops.cutile_cpp.rope(q, k, cos, sin, rope_dim)
    if torch.compiler.is_compiling():
        torch.ops.cutile_cpp.rope_(q, k, cos, sin, rope_dim)
    else:
        _rope_(q, k, cos, sin, rope_dim)
    return q, k
