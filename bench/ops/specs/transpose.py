"""transpose: y = x^T of a matrix."""

import torch

from configs import Config, OpSpec, close, numel_bytes, tilegym_call


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.t().contiguous()


def _build(p, device):
    return {"x": torch.randn(p["M"], p["N"], device=device, dtype=p["dtype"])}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"])
    return tilegym_call("transpose", backend, x["x"])


SPEC = OpSpec(
    name="transpose",
    tilegym_op="transpose",
    family="gemm",
    source="TileGym has no benchmark and no test of transpose: square and ragged matrices around its launcher's "
    "tile switch (128x128 tiles for f16/bf16 from 4096 on both sides), f16/bf16/f32; x = randn; exact; "
    "bytes = read x + write y",
    metric="GB/s",
    configs=[
        Config({"M": m, "N": n, "dtype": d}, quick=(d == torch.bfloat16 and m == 8192))
        for d in (torch.bfloat16, torch.float16, torch.float32)
        for m, n in ((1024, 1024), (4096, 4096), (8192, 8192), (3000, 5000))
    ],
    tiny={"M": 64, "N": 48, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(0.0, 0.0)(out, reference(x["x"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
)
