"""The attention recipe."""

from __future__ import annotations

import math

from signatures import Array, Scalar, dtype
from recipes import Launch, Recipe


# fmha: tilegym/ops/cutile/attention.py; bench_fused_attention runs B 4, H 32, D 128, N 1024..16384, f16.
def build(c):
    b, h, s, d, e = c["B"], c["H"], c["S"], c["D"], dtype(c["dtype"])
    s_kv = c["S_kv"] or s
    h_kv = c["H_kv"] or h
    q, o = Array(e, (b, h, s, d)), Array(e, (b, h, s, d))
    k, v = Array(e, (b, h_kv, s_kv, d)), Array(e, (b, h_kv, s_kv, d))
    sm_scale = 1.0 / math.sqrt(d)
    even_k = s_kv % 128 == 0  # max TILE_N over the candidates
    args = (q, k, v, o, Scalar(sm_scale), Scalar(s_kv - s), d, h, c["tile_m"], c["tile_n"], h // h_kv,
            bool(c["causal"]), even_k)
    return [
        Launch("fmha", "_fmha_kernel", args, {"occupancy": c["occupancy"]},
               "forward (autotuned path): tiles of the first H200 candidate (256, 128); the tuned kernel is "
               "relaunched with replace_hints(occupancy=2)"),
    ]


RECIPE = Recipe("attention", {"B": 4, "H": 32, "S": 4096, "D": 128, "dtype": "f16", "causal": True,
                "S_kv": None, "H_kv": None, "tile_m": 256, "tile_n": 128,
                "occupancy": 2}, build,
                "fused attention forward, q/k/v (B, H, S, D): fmha")
# TileGym calls it fmha too.
ALIASES = ("fmha",)
