"""The splitk_reduce recipe."""

from __future__ import annotations

from signatures import Array, dtype
from recipes import Launch, Recipe, cdiv, next_power_of_2


# splitk_reduce: tilegym/ops/cutile/splitk_reduce.py. TileGym has no bench_splitk_reduce.py; its
# test_perf (tests/ops/test_splitk_reduce.py) runs B 1, H 16/32, D 512, NUM_KV_SPLITS 2, 8, 16, 64, f16,
# S_kv 1024, 1024, 8192, 8192. The launcher's one kernel has two bodies, chosen by the ct.Constant
# USE_DOT = NUM_KV_SPLITS_POW2 >= threshold, the threshold 4 below compute capability 9 and 16 from it
# (H200: 16): "sum" (a weighted column sum) at the sweep's 8 splits, "dot" (an mma of the weights row with
# the splits tile) at its 16 splits.
def build(c):
    b, h, d, e = c["B"], c["H"], c["D"], dtype(c["dtype"])
    tile_d = min(128, next_power_of_2(d))
    launches = []
    for variant, splits, s_kv, note in (
        ("sum", c["splits_sum"], c["S_kv_sum"],
         "USE_DOT=False (NUM_KV_SPLITS_POW2 below the threshold): out_splitk * weights summed over the splits"),
        ("dot", c["splits_dot"], c["S_kv_dot"],
         "USE_DOT=True (NUM_KV_SPLITS_POW2 at or above the threshold): mma of the (1, P) weights with the "
         "f32 (P, TILE_D) splits tile"),
    ):
        pow2 = next_power_of_2(splits)
        use_dot = pow2 >= c["dot_threshold"]
        if use_dot != (variant == "dot"):
            raise ValueError(f"splitk_reduce {variant}: {splits} splits (pow2 {pow2}) give USE_DOT={use_dot} with "
                             f"dot_threshold {c['dot_threshold']}; pick splits_{variant} on the {variant} side")
        attn_splitk_out, lse_splitk_out = Array(e, (b, h, splits, d)), Array(dtype("f32"), (b, h, splits))
        attn_out = Array(e, (b, h, d))
        # The launcher's order and Python types; B, S_KV, NUM_HEADS, HEAD_DIM and NUM_KV_SPLITS are
        # ct.Constant ints the body never reads. Grid (B, H, cdiv(D, TILE_D)); occupancy from the decorator,
        # ByTarget(sm_80=2, default=4).
        args = (attn_splitk_out, lse_splitk_out, attn_out, b, s_kv, h, d, splits, pow2, tile_d, use_dot)
        launches.append(Launch(variant, "_splitk_reduce_kernel", args, {},
                               f"{note}; grid ({b}, {h}, {cdiv(d, tile_d)}), TILE_D {tile_d}, "
                               f"NUM_KV_SPLITS_POW2 {pow2}"))
    return launches


RECIPE = Recipe("splitk_reduce", {"B": 1, "H": 32, "D": 512, "dtype": "f16", "splits_sum": 8, "S_kv_sum": 1024,
                "splits_dot": 16, "S_kv_dot": 8192, "dot_threshold": 16}, build,
                "split-KV attention decode merge, attn_splitk_out (B, H, NUM_KV_SPLITS, D) and lse (B, H, "
                "NUM_KV_SPLITS) into attn_out (B, H, D): sum, dot")
