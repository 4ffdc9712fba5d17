"""The rope recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, next_power_of_2


# rope: tilegym/ops/cutile/rope.py; bench_rope runs B 1, H 16, D 64, S 4096..32768, f16, q and k
# contiguous (B, H, S, D), cos/sin (1, S, D) (expanded to B).
def build(c):
    b, h, s, d, e = c["B"], c["H"], c["S"], c["D"], dtype(c["dtype"])
    h_kv = c["H_kv"] or h
    rope_dim = int(d * c["partial_rotary_factor"])
    q, k = Array(e, (b, h, s, d)), Array(e, (b, h_kv, s, d))
    cos, sin = Array(e, (1, s, rope_dim)), Array(e, (1, s, rope_dim))
    args = (q, k, cos, sin, 1, s, next_power_of_2(h), next_power_of_2(h_kv), next_power_of_2(rope_dim // 2))
    return [
        Launch("rope", "_rope_kernel", args, {"occupancy": c["occupancy"]},
               "forward (and backward, with -sin): grid B*S, COS_BS 1, occupancy 9 as with "
               "TILEGYM_DISABLE_AUTOTUNE=1 (tuned over 1, 7, 9, 12 otherwise)"),
    ]


RECIPE = Recipe("rope", {"B": 1, "H": 16, "S": 4096, "D": 64, "dtype": "f16", "H_kv": None,
                "partial_rotary_factor": 1.0, "occupancy": 9}, build,
                "rotary embedding in place on q (B, H, S, D) and k (B, H_kv, S, D): rope")
