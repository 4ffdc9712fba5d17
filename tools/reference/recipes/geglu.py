"""The geglu recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe
from recipes.gelu import _GELU_MODES


# geglu: activation/geglu.py; test_geglu's perf configuration, x (256, 64, 16, 128) split on dim 3:
# M = 256 * 64 * 16 rows of 2N = 128, flattened.
def build(c):
    m, n, e, mode = c["M"], c["N"], dtype(c["dtype"]), _GELU_MODES[c["approximate"]]
    x, y = Array(e, (m * 2 * n,)), Array(e, (m * n,))
    return [
        Launch("forward", "_geglu_fwd_kernel", (y, x, n, 2 * n, n, 256, mode), {},
               "forward: gathers of BLOCK_SIZE 256 flattened outputs, m = i // N, n = i % N"),
        Launch("backward", "_geglu_bwd_kernel", (Array(e, (m * 2 * n,)), Array(e, (m * n,)), x, n, 2 * n, n, 256, mode),
               {}, "backward: the same gathers, scatters of both halves of dx"),
    ]


RECIPE = Recipe("activation.geglu", {"M": 262144, "N": 64, "dtype": "f16", "approximate": "none"}, build,
                "a * gelu(b) over the halves of (M, 2N): forward, backward")
