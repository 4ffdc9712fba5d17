"""The layer_norm_legacy recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe


# layer_norm_legacy: tilegym/ops/cutile/layer_norm_legacy.py; bench_layernorm runs M 4096, N 2^5..2^14, f16.
def build(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    x, y, w, b = Array(e, (m, n)), Array(e, (m, n)), Array(e, (n,)), Array(e, (n,))
    mean, rstd = Array(dtype("f32"), (m,)), Array(dtype("f32"), (m,))
    max_fused = 65536 // (e.bitwidth // 8)
    block = min(max_fused, 1 << (n.bit_length() - 1))  # the largest power of two <= N
    return [
        Launch("legacy", "_layer_norm_fwd_kernel",
               (x, y, w, b, mean, rstd, n, float(c["eps"]), float(c["weight_shift"]), block), {},
               "layer_norm_legacy: one row per block, BLOCK_SIZE the largest power of two <= N"),
    ]


RECIPE = Recipe("layer_norm_legacy", {"M": 4096, "N": 4096, "dtype": "f16", "eps": 1e-5,
                "weight_shift": 0.0}, build,
                "LayerNorm over (M, N), one row per block in column tiles")
