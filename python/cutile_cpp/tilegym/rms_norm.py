"""TileGym's get_rms_norm_module: its cutile RMSNorm modules on cutile_cpp.rms_norm (rms_norm itself is the
generic registration of the op's description)."""

from __future__ import annotations

import torch
from tilegym.backend import register_impl

from .. import ops
from . import BACKEND


def _rms_norm(hidden_states, weight, eps, mode, offset):
    return ops.rms_norm(hidden_states, weight, eps, offset=offset, mode=mode)[0]


class RMSNorm(torch.nn.Module):
    """TileGym's cutile RMSNorm module on our kernels: weight of ones, `forward(hidden_states, mode=None)`,
    the torch references and the standalone backward as static methods."""

    def __init__(self, hidden_size, eps=1e-6, offset=0.0):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps
        self.hidden_size = hidden_size
        self.offset = offset

    def forward(self, hidden_states, mode=None):
        return _rms_norm(hidden_states, self.weight, self.variance_epsilon, mode, self.offset)

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
        """(dx, dw) given the forward's rstd (float32, one per row), with offset 0."""
        return ops.rms_norm_backward(dy, x, weight, rstd.reshape(-1))

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


class RMSNormForGemma3(RMSNorm):
    """Gemma3's variant: `dim`, zero-initialised weight, offset 1."""

    def __init__(self, dim, eps=0.000001, offset=1.0, casting_mode="gemma", init_fn="zeros", in_place=False):
        super().__init__(hidden_size=dim, eps=eps, offset=offset)
        self.weight = torch.nn.Parameter(torch.zeros(dim))


@register_impl("get_rms_norm_module", backend=BACKEND)
def get_rms_norm_module(model: str = "llama"):
    """TileGym's get_rms_norm_module: the Gemma3 module for "gemma3", the standard one otherwise."""
    return RMSNormForGemma3 if model == "gemma3" else RMSNorm
