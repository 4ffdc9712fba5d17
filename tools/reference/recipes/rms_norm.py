"""The rms_norm recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, H200_SMS, cdiv, next_power_of_2


# rms_norm: tilegym/ops/cutile/rms_norm.py; bench_rmsnorm runs M 4096, N 1024..16384, f16/bf16.
def build(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    eps, offset = float(c["eps"]), float(c["offset"])
    x, y, w = Array(e, (m, n)), Array(e, (m, n)), Array(e, (n,))
    rstd = Array(dtype("f32"), (m,))
    tile_n = next_power_of_2(n)
    tile_m = 16 if tile_n <= 1024 else 2 if tile_n >= 16384 else 4
    reload_tile = min(4096 // (e.bitwidth // 8), tile_n)
    # Backward tiles (_bwd_tiles): one row per block past 4096 columns, else 4 rows when it fits.
    bwd_tm = 1 if tile_n > 4096 else 4 if tile_n <= 2048 or (m >= 8192 and tile_n <= 4096) else 1
    tiles = cdiv(m, bwd_tm)
    grid = min(c["num_sms"], tiles)
    if tiles <= 64:
        grid = min(grid, 32)
    dy, dx, dw_partial = Array(e, (m, n)), Array(e, (m, n)), Array(dtype("f32"), (grid, tile_n))
    return [
        Launch("static_persistent", "_rms_norm_kernel_static_persistent",
               (x, y, w, rstd, tile_m, tile_n, eps, offset), {},
               "mode static_persistent (the default when M > 2 * SMs): 2-D load/store tiles"),
        Launch("multi_wave_reload", "_rms_norm_kernel_gather", (x, w, y, rstd, n, eps, offset, reload_tile), {},
               "mode multi_wave_reload: gather loops with TILE = min(4096 bytes / element, next_pow2(N))"),
        Launch("multi_wave_cached", "_rms_norm_kernel_multi_wave_cached", (x, w, y, rstd, n, eps, offset, tile_n),
               {}, "mode multi_wave_cached: one gather tile of next_pow2(N) per row"),
        Launch("backward", "_rms_bwd_kernel", (dx, dy, x, w, rstd, dw_partial, bwd_tm, tile_n), {},
               "backward: persistent grid-stride kernel, occupancy 1, dw partials of shape (grid, TILE_N)"),
    ]


RECIPE = Recipe("rms_norm", {"M": 4096, "N": 4096, "dtype": "bf16", "eps": 1e-5, "offset": 0.0,
                "num_sms": H200_SMS}, build,
                "RMSNorm over (M, N) with weight (N,): static_persistent, multi_wave_reload, "
                "multi_wave_cached, backward")
