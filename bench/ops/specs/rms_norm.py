"""rms_norm over the last axis, and its backward."""

import torch

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor, weight: torch.Tensor, eps: float, offset: float = 0.0) -> torch.Tensor:
    """In float32, then rounded to x's dtype, as TileGym's kernels compute it."""
    x32 = x.float()
    y = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps) * (offset + weight.float())
    return y.to(x.dtype)


def reference_backward(dy, x, weight, rstd, offset: float = 0.0):
    """(dx, dweight) of rms_norm given its rstd, in float32, rounded to the tensors' dtypes."""
    n = x.shape[-1]
    x32, dy32 = x.reshape(-1, n).float(), dy.reshape(-1, n).float()
    x_hat = x32 * rstd.reshape(-1, 1)
    g = dy32 * (offset + weight.float())
    dx = rstd.reshape(-1, 1) * (g - x_hat * (g * x_hat).sum(dim=1, keepdim=True) / n)
    return dx.view(x.shape).to(x.dtype), (dy32 * x_hat).sum(dim=0).to(weight.dtype)


def _build(p, device):
    x = torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]).mul_(0.5).add_(-2.3)
    return {"x": x, "w": torch.randn(p["N"], device=device, dtype=p["dtype"]), "eps": 1e-5}


def _call(backend, p, x):
    shape = (p["N"],)
    if backend == "pytorch":
        return lambda: torch.nn.functional.rms_norm(x["x"], shape, weight=x["w"], eps=x["eps"])
    mode = None if backend == "triton" else p["mode"]
    return tilegym_call("rms_norm", backend, x["x"], shape, x["w"], x["eps"], mode=mode)


SPEC = OpSpec(
    name="rms_norm",
    tilegym_op="rms_norm",
    family="normalization",
    source="tests/benchmark/bench_rmsnorm.py: M 4096, N 1024..16384, f16/bf16; cutile modes static_persistent, "
    "multi_wave_reload, multi_wave_cached (triton: mode None); x = rand*0.5 - 2.3, w = randn, eps 1e-5; "
    "tol (0, 5e-2); bytes = x + w + y",
    metric="GB/s",
    configs=[
        Config({"M": 4096, "N": 2**i, "dtype": d, "mode": m},
               quick=(d == torch.bfloat16 and i in (10, 14) and m == "static_persistent"))
        for m in ("static_persistent", "multi_wave_reload", "multi_wave_cached")
        for d in (torch.float16, torch.bfloat16)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.float16, "mode": "static_persistent"},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(0.0, 5e-2)(out, reference(x["x"], x["w"], x["eps"])),
    amount=lambda p, x: numel_bytes(x["x"], x["w"], x["x"]),
    triton=True,
    variant_params=("mode",),
)
