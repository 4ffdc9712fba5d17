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
)


@register_impl("softmax", backend=BACKEND)
def softmax(x: torch.Tensor, use_tma: bool = False, **kwargs) -> torch.Tensor:
    """TileGym's softmax: a new (M, N) tensor laid out like torch.empty_like(x). `use_tma` and the
    `use_chunked` / `use_multi_wave` keywords pick among cuTile Python's kernels for the same result; the
    one kernel here computes that result for every choice, so they are accepted and have no effect.
    Forward-only (TileGym's cutile softmax has no backward either)."""
    return ops.softmax(x)



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


get_available_backends().add(BACKEND)
