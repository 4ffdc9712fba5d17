"""persistent_layer_norm: layer normalisation over the last axis, persistent over row tiles."""

import torch

from configs import Config, OpSpec, numel_bytes, spec_module

legacy = spec_module("layer_norm_legacy")
reference = legacy.reference

SPEC = OpSpec(
    name="persistent_layer_norm",
    tilegym_op="persistent_layer_norm",
    family="normalization",
    source="tests/benchmark/bench_layernorm.py (bench_persistent_layer_norm): M 30000/128000, N 256..16384, bf16, "
    "eps 1e-6; x, w, b = randn; output [0] checked, tol (1e-2, 1e-2); bytes = 2x + w + b",
    metric="GB/s",
    configs=[
        Config({"M": m, "N": n, "dtype": torch.bfloat16}, quick=(m == 30000 and n in (1024, 16384)))
        for m in (30000, 128000)
        for n in legacy.COLUMNS
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.bfloat16},
    build=legacy.build,
    call=legacy.caller("persistent_layer_norm"),
    check=legacy.check,
    amount=lambda p, x: numel_bytes(x["x"], x["x"], x["w"], x["b"]),
    triton=True,
)
