"""gelu: x · Φ(x), exactly or in its tanh form."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    return F.gelu(x, approximate=approximate)


def _build(p, device):
    return {"x": torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]).mul_(0.5).add_(-2.3)}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"], p["approximate"])
    return tilegym_call("gelu", backend, x["x"], approximate=p["approximate"])


SPEC = OpSpec(
    name="gelu",
    tilegym_op="gelu",
    family="elementwise",
    source="TileGym has no benchmark and no test_perf for gelu: the shapes of tests/ops/activation/test_gelu.py "
    "test_op, plus (4096, 16384) f16 added here; x = rand*0.5 - 2.3; tol (0, 1e-2)",
    metric="GB/s",
    configs=[
        Config({"M": 256, "N": 2048, "approximate": a, "dtype": d}, quick=(d == torch.float16 and a == "tanh"))
        for d in (torch.float32, torch.float16)
        for a in ("none", "tanh")
    ]
    + [Config({"M": 4096, "N": 16384, "approximate": a, "dtype": torch.float16}, quick=True) for a in ("none", "tanh")],
    tiny={"M": 256, "N": 64, "approximate": "none", "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(0.0, 1e-2)(out, reference(x["x"], p["approximate"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
)
