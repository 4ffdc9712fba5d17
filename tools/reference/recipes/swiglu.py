"""The swiglu recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, H200_SMS, cdiv, next_power_of_2


# swiglu: swiglu.py; bench_swiglu runs batch 1/4/8 x M 128/4096 rows, N 1024..16384, f16/bf16/f32.
def build(c):
    rows, n, e = c["batch"] * c["M"], c["N"], dtype(c["dtype"])
    tile = next_power_of_2(n)
    bwd_tile = next_power_of_2(int(n / cdiv(c["num_sms"], rows)))
    a, b = Array(e, (rows, n)), Array(e, (rows, n))
    return [
        Launch("forward", "_swiglu_forward_kernel", (a, b, Array(e, (rows, n)), tile, tile != n), {},
               "forward: one row per block, gathers; occupancy 1 and 8 worker warps from the decorator"),
        Launch("backward", "_swiglu_backward_kernel",
               (Array(e, (rows, n)), a, b, Array(e, (rows, n)), Array(e, (rows, n)), bwd_tile), {},
               "backward: (1, TILE) load/store views, TILE = next_power_of_2(N / ceil(SMs / rows))"),
    ]


RECIPE = Recipe("swiglu", {"batch": 4, "M": 4096, "N": 4096, "dtype": "f16", "num_sms": H200_SMS}, build,
                "silu(a) * b: forward, backward")
