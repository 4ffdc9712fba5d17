"""The persistent_layer_norm recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, H200_SMS, cdiv, next_power_of_2


# persistent_layer_norm: tilegym/ops/cutile/layer_norm_legacy.py; its benchmark runs M 30000/128000,
# N 256..10000, bf16. The configuration TileGym's autotuning picks on the H200 at M 30000, N 1024 (BLOCK_N 8,
# num_ctas 1, num_worker_warps 4; bench/results/2026-11-30_h200_ops_quick_autotune.json, tilegym_autotune):
# the kernel cuTile Python runs there. Its untuned default (TILEGYM_DISABLE_AUTOTUNE) has 8 worker warps.
def build(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    x, y, w, b = Array(e, (m, n)), Array(e, (m, n)), Array(e, (n,)), Array(e, (n,))
    mean, rstd = Array(dtype("f32"), (m,)), Array(dtype("f32"), (m,))
    block_n, block_d = c["block_n"], next_power_of_2(n)
    grid = min(c["num_sms"], cdiv(m, block_n))
    return [
        Launch("persistent", "_persistent_layer_norm_fwd_kernel",
               (x, y, w, b, mean, rstd, m, n, float(c["eps"]), n, n, 0, 1, block_n, block_d, 1, grid),
               {"num_ctas": 1, "num_worker_warps": c["num_worker_warps"]},
               "mean and rstd computed (COMPUTE_MEAN_AND_RSTD 1, TRAINING 1), TileGym's H200 tuning at N 1024"),
    ]


RECIPE = Recipe("layer_norm_legacy", {"M": 30000, "N": 1024, "dtype": "bf16", "eps": 1e-6,
                "block_n": 8, "num_worker_warps": 4,
                "num_sms": H200_SMS}, build,
                "persistent LayerNorm over (M, N): BLOCK_N-row tiles, one block per SM")
