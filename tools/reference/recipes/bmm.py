"""The bmm recipe."""

from __future__ import annotations

from signatures import Array, Scalar, dtype
from recipes import Launch, Recipe


# bmm: tilegym/ops/cutile/bmm.py; bench_bmm runs batch 2 and 8, M = N = K 2^10..2^12, every (transpose_a,
# transpose_b), f16, through the default static_persistent=True path. The persistent kernel takes M, N, K,
# the tiles, GROUP_SIZE_M, LATENCY and both transposes as ct.Constant; Batch is its only runtime scalar.
# Autotuned over the H200's own branch of _bmm_autotune_configs (compute capability (9, 0): TILE_M, TILE_N
# in 64/128/256, TILE_K 64, occupancy 1/2, num_ctas 2, no LATENCY attribute, so the launcher's default 3).
# The defaults are the autotuner's pick on the H200 at every bench_bmm shape from 2048 on and at batch 8
# from 1024 on, every transpose pair: 256x128x64, num_ctas 2, occupancy 2
# (docs/porting-runs/bmm/analyze/gpu/autotune.json).
# The non-persistent kernel is not autotuned: 128x128x32, the decorator's hints, no transposes.
def build(c):
    q, m, n, k, e = c["Q"], c["M"], c["N"], c["K"], dtype(c["dtype"])
    out = Array(e, (q, m, n))
    launches = [
        Launch("bmm", "_bmm_kernel",
               (Array(e, (q, m, k)), Array(e, (q, k, n)), out, c["tile_m"], c["tile_n"], c["tile_k"]), {},
               "static_persistent=False: the launcher's default tiles (128, 128, 32), grid (cdiv(M, TM), "
               "cdiv(N, TN), Q), no hints; no transposes"),
    ]
    for variant, ta, tb in (("static_persistent", False, False), ("static_persistent_ta", True, False),
                            ("static_persistent_tb", False, True), ("static_persistent_tatb", True, True)):
        a = Array(e, (q, k, m) if ta else (q, m, k))
        b = Array(e, (q, n, k) if tb else (q, k, n))
        launches.append(Launch(
            variant, "_static_persistent_bmm_kernel",
            (a, b, out, Scalar(q), m, n, k, c["sp_tile_m"], c["sp_tile_n"], c["sp_tile_k"], 8,
             c["sp_latency"], ta, tb),
            {"num_ctas": c["sp_num_ctas"], "occupancy": c["sp_occupancy"]},
            f"static_persistent=True, transpose_a={ta}, transpose_b={tb}: the H200 autotuner's choice "
            f"({c['sp_tile_m']}, {c['sp_tile_n']}, {c['sp_tile_k']}, GROUP 8, num_ctas {c['sp_num_ctas']}, "
            f"occupancy {c['sp_occupancy']}, LATENCY {c['sp_latency']})"))
    return launches


RECIPE = Recipe("bmm", {"Q": 8, "M": 2048, "N": 2048, "K": 2048, "dtype": "f16",
                "tile_m": 128, "tile_n": 128, "tile_k": 32,
                "sp_tile_m": 256, "sp_tile_n": 128, "sp_tile_k": 64, "sp_num_ctas": 2,
                "sp_occupancy": 2, "sp_latency": 3}, build,
                "C[q] = op(A[q]) @ op(B[q]) over a batch: bmm, static_persistent (x4 transposes)")
