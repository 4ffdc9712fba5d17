"""The transpose recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe


# transpose: tilegym/ops/cutile/transpose.py; TileGym has no benchmark of it: a (4096, 4096) bf16 matrix,
# where its launcher takes 128x128 tiles (f16/bf16 with both sides >= 4096; 64x64 otherwise).
def build(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    large = e.bitwidth == 16 and m >= 4096 and n >= 4096
    block = 128 if large else 64
    return [
        Launch("transpose", "_transpose_kernel", (Array(e, (m, n)), Array(e, (n, m)), m, n, block, block), {},
               f"the only kernel: ({block}, {block}) tiles loaded, transposed and stored at the transposed index"),
    ]


RECIPE = Recipe("transpose", {"M": 4096, "N": 4096, "dtype": "bf16"}, build, "y = x^T for x (M, N): transpose")
