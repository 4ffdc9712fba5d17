"""geglu: a · gelu(b) over the two halves of `dim`."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor, dim: int = -1, approximate: str = "none") -> torch.Tensor:
    a, b = x.chunk(2, dim=dim)
    return a * F.gelu(b, approximate=approximate)


def _build(p, device):
    return {"x": torch.rand(p["shape"], device=device, dtype=p["dtype"])}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"], p["dim"], p["approximate"])
    return tilegym_call("geglu", backend, x["x"], p["dim"], p["approximate"])


SPEC = OpSpec(
    name="geglu",
    tilegym_op="geglu",
    family="elementwise",
    source="TileGym has no benchmark for geglu: tests/ops/activation/test_geglu.py test_perf configurations "
    "(forward only here; inputs without requires_grad); x = rand; tol (1e-2, 1e-2); bytes = x + y",
    metric="GB/s",
    configs=[
        Config({"shape": (256, 64, 16, 128), "dim": 3, "approximate": a, "dtype": torch.float16}, quick=(a == "none"))
        for a in ("none", "tanh")
    ],
    tiny={"shape": (16, 64), "dim": 1, "approximate": "none", "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, reference(x["x"], p["dim"], p["approximate"])),
    amount=lambda p, x: numel_bytes(x["x"]) * 3 // 2,  # read x, write half of it
)
