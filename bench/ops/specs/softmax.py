"""softmax over the last axis, TileGym's four kernels."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call

VARIANTS = {  # bench_softmax.py's (use_tma, use_chunked, use_multi_wave) lines
    "baseline": (False, False, False),
    "tma": (True, False, False),
    "chunked": (False, True, False),
    "multi_wave": (False, False, True),
}


def reference(x: torch.Tensor) -> torch.Tensor:
    return F.softmax(x, dim=-1)


def _build(p, device):
    return {"x": torch.randn(p["M"], p["N"], device=device, dtype=p["dtype"])}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["x"])
    if backend == "tilecpp":  # one kernel, TMA rows chosen from the shape; takes no variant flags
        return tilegym_call("softmax", backend, x["x"])
    tma, chunked, multi_wave = VARIANTS[p["variant"]]
    return tilegym_call("softmax", backend, x["x"], use_tma=tma, use_chunked=chunked, use_multi_wave=multi_wave)


SPEC = OpSpec(
    name="softmax",
    tilegym_op="softmax",
    family="normalization",
    source="tests/benchmark/bench_softmax.py: M 4096, N 1024..16384, f32/bf16, variants baseline/tma/chunked/"
    "multi_wave; x = randn; tol (1e-2, 1e-2); bytes = 2 * x",
    metric="GB/s",
    configs=[
        Config({"M": 4096, "N": 2**i, "dtype": d, "variant": v}, quick=(d == torch.bfloat16 and i in (10, 14)))
        for v in VARIANTS
        for d in (torch.float32, torch.bfloat16)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.float32, "variant": "baseline"},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, reference(x["x"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
    variant_params=("variant",),
    # TileGym's tilecpp softmax has no variants (its use_tma is ignored): measured once per shape
    variantless=("pytorch", "triton", "tilecpp"),
)
