"""The dropout recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe


# dropout: tilegym/ops/cutile/dropout.py; bench_dropout runs M 2^20..2^26, p 0.5, f16/f32.
def build(c):
    m, e, p = c["M"], dtype(c["dtype"]), float(c["p"])
    x, y = Array(e, (m,)), Array(e, (m,))
    mixed = (int(c["seed"]) * 2654435761) & 0xFFFFFFFF
    seed = mixed - (1 << 32) if mixed >= 0x80000000 else mixed
    return [
        Launch("dropout", "_dropout_kernel", (x, y, p, seed, 1024, True), {},
               "training, not in place: 1-D gather/scatter tiles of 1024, p and the _mix_seed'ed seed compiled "
               "in (in place launches the same kernel with output = x)"),
    ]


RECIPE = Recipe("dropout", {"M": 1 << 24, "dtype": "f16", "p": 0.5, "seed": 0}, build,
                "dropout of a flat (M,) tensor in training mode: dropout")
