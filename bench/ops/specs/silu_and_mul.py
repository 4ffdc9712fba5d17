"""silu_and_mul: silu(x[..., :H]) · x[..., H:]."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor) -> torch.Tensor:
    h = x.shape[-1] // 2
    return F.silu(x[..., :h]) * x[..., h:]


def _build(p, device):
    return {"x": torch.randn(p["M"], 2 * p["hidden"], device=device, dtype=p["dtype"])}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"])
    return tilegym_call("silu_and_mul", backend, x["x"])


SPEC = OpSpec(
    name="silu_and_mul",
    tilegym_op="silu_and_mul",
    family="elementwise",
    source="tests/benchmark/bench_silu_and_mul.py: M 1024..16384, hidden 2048, f16/f32; x = randn (M, 2*hidden); "
    "tol (1e-2, 1e-2); bytes = input + output (TileGym times with a CUDA graph; see method)",
    metric="GB/s",
    configs=[
        Config({"M": 2**i, "hidden": 2048, "dtype": d}, quick=(d == torch.float16 and i in (10, 14)))
        for d in (torch.float16, torch.float32)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "hidden": 64, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, reference(x["x"])),
    amount=lambda p, x: numel_bytes(x["x"]) * 3 // 2,
)
