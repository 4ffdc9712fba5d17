"""The group_gemm recipe."""

from __future__ import annotations

from signatures import Array, ArrayList, dtype
from recipes import Launch, Recipe, H200_SMS


# group_gemm: tilegym/ops/cutile/group_gemm.py; bench_group_gemm runs M = N = K 1024..4096 with 4 or 16
# groups of one size, f16. Autotuned: the first H200 candidate (128, 128, 128, num_ctas 1, occupancy 1).
def build(c):
    m, n, k, groups, e = c["M"], c["N"], c["K"], c["groups"], dtype(c["dtype"])
    b_shape = (n, k) if c["transpose_b"] else (k, n)
    As = ArrayList(tuple(Array(e, (m, k)) for _ in range(groups)))
    Bs = ArrayList(tuple(Array(e, b_shape) for _ in range(groups)))
    Cs = ArrayList(tuple(Array(e, (m, n)) for _ in range(groups)))
    num_sm = H200_SMS // c["num_ctas"] * c["occupancy"]
    return [
        Launch("group_gemm", "_group_gemm_kernel",
               (As, Bs, Cs, c["tile_m"], c["tile_n"], c["tile_k"], num_sm, bool(c["transpose_b"])),
               {"num_ctas": c["num_ctas"], "occupancy": c["occupancy"]},
               "static_persistent=True: first H200 autotune candidate (128, 128, 128, num_ctas 1, occupancy 1)"),
    ]


RECIPE = Recipe("group_gemm", {"M": 2048, "N": 2048, "K": 2048, "groups": 4, "dtype": "f16",
                "transpose_b": False, "tile_m": 128, "tile_n": 128, "tile_k": 128,
                "num_ctas": 1, "occupancy": 1}, build,
                "C_g = A_g @ B_g over lists of (M, K) and (K, N) matrices: group_gemm")
