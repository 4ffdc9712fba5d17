"""TileGym backend "cutile-cpp".

Importing this module registers every op the kernel library ports with TileGym's dispatcher
(tilegym.backend.register_impl) and adds the backend to TileGym's available set, so that
`tilegym.set_backend("cutile-cpp")` and `tilegym.ops.<op>(..., backend="cutile-cpp")` run our kernels.
Each implementation has the signature, defaults, output layout and in-place behaviour of TileGym's cutile
implementation of the op (src/tilegym/ops/cutile/<op>.py).
"""

from __future__ import annotations

import torch
import torch.nn as nn
from tilegym.backend import get_available_backends, register_impl

from . import ops

BACKEND = "cutile-cpp"
# The ops registered here, by TileGym name.
PORTED_OPS = (
    "softmax",
    "relu",
    "gelu",
    "geglu",
    "silu_and_mul",
    "get_swiglu",
    "get_swiglu_module",
    "rms_norm",
    "get_rms_norm_module",
    "layer_norm_legacy",
    "persistent_layer_norm",
    "apply_rope_base",
    "get_apply_rope_func",
    "dropout",
)


@register_impl("softmax", backend=BACKEND)
def softmax(x: torch.Tensor, use_tma: bool = False, **kwargs) -> torch.Tensor:
    """TileGym's softmax: a new (M, N) tensor laid out like torch.empty_like(x). `use_tma` and the
    `use_chunked` / `use_multi_wave` keywords pick the kernel as TileGym's do; other keywords are
    ignored, as there. Forward-only (TileGym's cutile softmax has no backward either)."""
    return ops.softmax(
        x,
        use_tma,
        use_chunked=kwargs.get("use_chunked", False),
        use_multi_wave=kwargs.get("use_multi_wave", False),
    )


@register_impl("dropout", backend=BACKEND)
def dropout(x: torch.Tensor, seed, p=0.5, training=True, inplace=False, **kwargs) -> torch.Tensor:
    """TileGym's dropout: the same mask as TileGym's cutile kernel for the same seed and shape. Not
    training or inplace: returns x itself; else a new tensor like torch.empty_like(x). Forward-only
    (TileGym's cutile backward raises)."""
    return ops.dropout(x, seed, p, training, inplace)



# ---- activations


@register_impl("relu", backend=BACKEND)
def relu(x):
    """TileGym's relu: max(x, 0) as a new contiguous tensor. Forward-only, as TileGym's cutile relu is."""
    return ops.relu(x)


@register_impl("gelu", backend=BACKEND)
def gelu(input: torch.Tensor, approximate="none"):
    """TileGym's gelu ('none' in TileGym's cutile form, see cutile_cpp.gelu); differentiable."""
    return ops.gelu(input, approximate)


@register_impl("geglu", backend=BACKEND)
def geglu(input: torch.Tensor, dim=-1, approximate="none"):
    """TileGym's geglu: a · gelu(b) over the halves of `dim`; differentiable."""
    return ops.geglu(input, dim, approximate)


@register_impl("silu_and_mul", backend=BACKEND)
def silu_and_mul(input: torch.Tensor, out: torch.Tensor = None) -> torch.Tensor:
    """TileGym's silu_and_mul: silu(input[..., :H]) · input[..., H:], into `out` when given;
    differentiable when out is None."""
    return ops.silu_and_mul(input, out)


class _SwiGLUMLP(nn.Module):
    """TileGym's SwiGLU MLP, down_proj(swiglu(gate_proj(x), up_proj(x))), on our swiglu."""

    def __init__(self, config, hidden_size=None, intermediate_size=None):
        super().__init__()
        self.config = config
        self.hidden_size = config.hidden_size if hidden_size is None else hidden_size
        self.intermediate_size = config.intermediate_size if intermediate_size is None else intermediate_size
        self.gate_proj = nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.up_proj = nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.down_proj = nn.Linear(self.intermediate_size, self.hidden_size, bias=False)
        if config.hidden_act not in ("silu", "swish"):
            raise ValueError(f"Activation function {config.hidden_act} not supported.")

    def forward(self, x):
        return self.down_proj(ops.swiglu(self.gate_proj(x), self.up_proj(x)))


@register_impl("get_swiglu", backend=BACKEND)
def get_swiglu():
    """TileGym's get_swiglu: the function swiglu(a, b) = silu(a) · b, differentiable in a and b."""
    return ops.swiglu


@register_impl("get_swiglu_module", backend=BACKEND)
def get_swiglu_module():
    """TileGym's get_swiglu_module: the SwiGLU MLP class, on our swiglu."""
    return _SwiGLUMLP
@register_impl("rms_norm", backend=BACKEND)
def rms_norm(input, normalized_shape, weight, eps, bias=None, mode=None, offset=0.0, **kwargs):
    """TileGym's rms_norm: input · rsqrt(mean(input², last axis) + eps) · (offset + weight), a new contiguous
    tensor of input's shape. `mode` picks the kernel schedule as TileGym's does (None: static_persistent
    when the rows exceed twice the SMs, else multi_wave_reload); `normalized_shape` is unused; a bias is
    refused (NotImplementedError) as in every TileGym cutile mode. Differentiable in input and weight
    (offset 0), through our backward kernel."""
    if bias is not None:
        raise NotImplementedError("cutile-cpp rms_norm: bias is not supported (nor is it by TileGym's cutile rms_norm)")
    return ops.rms_norm(input, weight, eps, mode=mode, offset=offset)


class _RMSNorm(torch.nn.Module):
    """TileGym's cutile RMSNorm module on our kernels: weight of ones, `forward(hidden_states, mode=None)`,
    the torch references and the standalone backward as static methods."""

    def __init__(self, hidden_size, eps=1e-6, offset=0.0):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps
        self.hidden_size = hidden_size
        self.offset = offset

    def forward(self, hidden_states, mode=None):
        return rms_norm(hidden_states, None, self.weight, self.variance_epsilon, mode=mode, offset=self.offset)

    def forward_torch(self, hidden_states):
        dtype = hidden_states.dtype
        h = hidden_states.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)
        return (self.offset + self.weight) * h.to(dtype)

    @staticmethod
    def compute_rstd_torch(x, eps):
        x32 = x.reshape(-1, x.shape[-1]).to(torch.float32)
        return torch.rsqrt(x32.pow(2).mean(dim=-1) + eps)

    @staticmethod
    def rms_norm_backward(x, dy, weight, rstd):
        return ops.rms_norm_backward(x, dy, weight, rstd)

    @staticmethod
    def rms_norm_backward_torch(x, dy, weight, rstd):
        shape = x.shape
        x32 = x.reshape(-1, shape[-1]).float()
        dy32 = dy.reshape(-1, shape[-1]).float()
        r = rstd.view(-1, 1)
        x_hat = x32 * r
        g = dy32 * weight.float()
        dx = r * (g - x_hat * (g * x_hat).sum(dim=1, keepdim=True) / shape[-1])
        return dx.view(shape).to(x.dtype), (dy32 * x_hat).sum(dim=0).to(weight.dtype)

    def extra_repr(self):
        return f"{tuple(self.weight.shape)}, eps={self.variance_epsilon}, offset={self.offset}"


class _RMSNormForGemma3(_RMSNorm):
    """Gemma3's variant: `dim`, zero-initialised weight, offset 1."""

    def __init__(self, dim, eps=0.000001, offset=1.0, casting_mode="gemma", init_fn="zeros", in_place=False):
        super().__init__(hidden_size=dim, eps=eps, offset=offset)
        self.weight = torch.nn.Parameter(torch.zeros(dim))


@register_impl("get_rms_norm_module", backend=BACKEND)
def get_rms_norm_module(model: str = "llama"):
    """TileGym's get_rms_norm_module: the Gemma3 module for "gemma3", the standard one otherwise."""
    return _RMSNormForGemma3 if model == "gemma3" else _RMSNorm


@register_impl("layer_norm_legacy", backend=BACKEND)
def layer_norm_legacy(input, normalized_shape, weight, bias, eps, weight_shift=0.0, **kwargs):
    """TileGym's layer_norm_legacy: layer norm over the last axis with (weight + weight_shift), a new tensor of
    input's shape. `normalized_shape` is unused. Forward-only (TileGym's backward raises)."""
    return ops.layer_norm_legacy(input, weight, bias, eps, weight_shift)


@register_impl("persistent_layer_norm", backend=BACKEND)
def persistent_layer_norm(input, normalized_shape, weight, bias, eps, mean=None, rstd=None, **kwargs):
    """TileGym's persistent_layer_norm: (y, mean, rstd, BLOCK_D, num_warps), y rounded through bfloat16 as
    TileGym's kernel stores it; mean and rstd are used when both are given. Forward-only."""
    return ops.persistent_layer_norm(input, weight, bias, eps, mean, rstd)
@register_impl("apply_rope_base", backend=BACKEND)
def apply_rope_base(q, k, cos, sin, position_ids=None, unsqueeze_dim=1, partial_rotary_factor=1.0):
    """TileGym's apply_rope_base: q (B, Hq, S, D) and k (B, Hk, S, D) rotated in place by cos/sin of shape
    (S, W), (1, S, W) or (B, S, W) and returned. The first R head dims rotate, R = D, or
    int(D · partial_rotary_factor) when the factor is below 1 (then W must be R; the dims past R pass
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
            def halves(x):  # (..., D) as D/2 (re, im) pairs → (re..., im...)
                b, h, s, d = x.shape
                return x.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)

            # freqs_cis holds the D/2 distinct angles: exactly the half of cos/sin the kernel reads.
            cos, sin = freqs_cis.real.to(q.dtype), freqs_cis.imag.to(q.dtype)
            return apply_rope_base(halves(q), halves(k), cos, sin)

        return apply_complex_rope
    raise ValueError(f"Unsupported model: {model}")


get_available_backends().add(BACKEND)
