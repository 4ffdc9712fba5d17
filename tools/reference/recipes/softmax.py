"""The softmax recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, next_power_of_2


# softmax: tilegym/ops/cutile/softmax.py; bench_softmax runs M 4096, N 1024..16384, f32/bf16.
def build(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    x, y = Array(e, (m, n)), Array(e, (m, n))
    tile = next_power_of_2(n)
    # Gather kernel tunes num_worker_warps over (None, 4, 8); the first keeps the compiler default.
    gather_hints = {} if c["num_worker_warps"] is None else {"num_worker_warps": c["num_worker_warps"]}
    return [
        Launch("gather", "_softmax_kernel", (y, x, m, tile, n), gather_hints,
               "default path (use_tma=False): persistent gather/scatter, occupancy 4 from the decorator"),
        Launch("multi_wave", "_softmax_kernel_multi_wave_full_row_reg_cached_ldg", (y, x, n, tile), {},
               "use_multi_wave=True: one tile block per row, gather/scatter"),
        Launch("tma", "_softmax_kernel_tma", (y, x, m, n, tile), {"occupancy": c["tma_occupancy"]},
               "use_tma=True: persistent load/store views with NEG_INF padding; occupancy tuned over (2, 4, 6, 8)"),
        Launch("chunked", "_softmax_kernel_chunked", (y, x, m, n, min(tile, 8192)), {},
               "use_chunked=True: three-pass online softmax over chunks of at most 8192, occupancy 4"),
    ]


RECIPE = Recipe("softmax", {"M": 4096, "N": 4096, "dtype": "bf16", "num_worker_warps": None,
                "tma_occupancy": 2}, build,
                "row softmax over (M, N): gather, multi_wave, tma, chunked")
