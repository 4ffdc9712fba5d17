"""The silu_and_mul recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, next_power_of_2


# silu_and_mul: silu_and_mul.py; bench_silu_and_mul runs M 2^10..2^14 at hidden 2048, f16/f32.
def build(c):
    m, h, e = c["M"], c["H"], dtype(c["dtype"])
    tile = next_power_of_2(h)
    tile_bytes = tile * e.bitwidth // 8
    # _silu_autotune_settings on sm_90; occupancy's first autotune candidate is None (the default).
    hints = {"num_ctas": 1 if tile_bytes <= 8192 else 2, "num_worker_warps": 4 if tile_bytes <= 2048 else 8}
    x = Array(e, (m, 2 * h))
    return [
        Launch("forward", "_silu_and_mul_kernel_row_wise", (x, Array(e, (m, h)), tile, h), hints,
               "forward: one row per block, gathers of next_power_of_2(H)"),
        Launch("backward", "_silu_and_mul_backward_kernel_row_wise",
               (Array(e, (m, h)), x, Array(e, (m, h)), Array(e, (m, h)), tile, h), hints,
               "backward: one row per block, da and db as separate (M, H) outputs"),
    ]


RECIPE = Recipe("silu_and_mul", {"M": 4096, "H": 2048, "dtype": "f16"}, build,
                "silu(x[:, :H]) * x[:, H:]: forward, backward")
