"""relu: max(x, 0)."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor) -> torch.Tensor:
    return F.relu(x)


def _build(p, device):
    return {"x": torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]) - 0.5}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"])
    return tilegym_call("relu", backend, x["x"])


SPEC = OpSpec(
    name="relu",
    tilegym_op="relu",
    family="elementwise",
    source="TileGym has no benchmark and no test_perf for relu: the shapes of tests/ops/activation/test_relu.py "
    "test_op, plus (4096, 16384) f16/f32 added here to reach the bandwidth regime; x = rand - 0.5; tol (1e-5, 1e-8)",
    metric="GB/s",
    configs=[
        Config({"M": 256, "N": 64, "dtype": torch.float16}),
        Config({"M": 256, "N": 256, "dtype": torch.float16}),
        Config({"M": 256, "N": 2048, "dtype": torch.float32}, quick=True),
        Config({"M": 256, "N": 32768, "dtype": torch.float16}),
        Config({"M": 4096, "N": 16384, "dtype": torch.float16}, quick=True),
        Config({"M": 4096, "N": 16384, "dtype": torch.float32}),
    ],
    tiny={"M": 256, "N": 64, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(1e-5, 1e-8)(out, reference(x["x"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),  # read x, write y
)
