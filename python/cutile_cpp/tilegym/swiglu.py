"""TileGym's get_swiglu and get_swiglu_module: its SwiGLU function and MLP module on cutile_cpp.swiglu (which
TileGym's dispatcher has no entry of its own for)."""

from __future__ import annotations

import torch.nn as nn
from tilegym.backend import register_impl

from .. import ops
from . import BACKEND


class SwiGLUMLP(nn.Module):
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
    return SwiGLUMLP
