"""The matmul recipe."""

from __future__ import annotations

from signatures import Array, Scalar, dtype
from recipes import Launch, Recipe


# matmul: tilegym/ops/cutile/matmul.py; bench_matrix_multiplication runs M=N=K 2^10..2^14, f16.
def build(c):
    m, n, k, e = c["M"], c["N"], c["K"], dtype(c["dtype"])
    a, b, out = Array(e, (m, k)), Array(e, (k, n)), Array(e, (m, n))
    p = c
    return [
        Launch("matmul", "_matmul_kernel", (a, b, out, p["tile_m"], p["tile_n"], p["tile_k"]),
               {"num_ctas": p["num_ctas"], "occupancy": p["occupancy"]},
               "static_persistent=False: the H200 autotuner's choice for f16 and bf16 (128, 128, 32, num_ctas 1, "
               "occupancy 1)"),
        Launch("static_persistent", "_static_persistent_matmul_kernel",
               (a, b, out, Scalar(m), Scalar(n), Scalar(k), p["sp_tile_m"], p["sp_tile_n"], p["sp_tile_k"],
                False, False, 8, p["sp_load_latency"]),
               {"num_ctas": p["sp_num_ctas"], "occupancy": p["sp_occupancy"]},
               "static_persistent=True: the H200 autotuner's choice at every benchmark and test shape (128, 128, "
               "64, GROUP 8, num_ctas 1, occupancy 1, LOAD_LATENCY -1)"),
    ]


RECIPE = Recipe("matmul", {"M": 4096, "N": 4096, "K": 4096, "dtype": "f16",
                "tile_m": 128, "tile_n": 128, "tile_k": 32, "num_ctas": 1, "occupancy": 1,
                "sp_tile_m": 128, "sp_tile_n": 128, "sp_tile_k": 64, "sp_num_ctas": 1,
                "sp_occupancy": 1, "sp_load_latency": -1}, build,
                "C = A @ B with A (M, K), B (K, N): matmul, static_persistent")
