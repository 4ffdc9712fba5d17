"""Per-op recipes: which TileGym kernels to export and the arguments TileGym's launcher passes them.

Each recipe takes the op's configuration (defaults: the configuration TileGym's benchmarks in
tests/benchmark/bench_*.py run, at its middle size; overridable with --config key=value) and yields one Launch per kernel
variant, mirroring the launcher in tilegym/ops/cutile/<module>.py of tilegym 1.5.1: the argument
tuple (Array/Scalar for runtime arguments, plain values for ct.Constant ones, in the launcher's
order and Python types) and the hints it attaches with replace_hints().

Autotuned launchers pick a configuration by timing candidates on the GPU. With no GPU the
exporter takes the first candidate of the H200 branch (compute capability 9.0 takes the
"else"/Blackwell branch of TileGym's candidate lists), which is also what TileGym runs with
TILEGYM_DISABLE_AUTOTUNE=1; every such choice can be overridden through --config.
"""
import math
from dataclasses import dataclass, field

from signatures import Array, ArrayList, Scalar, dtype

H200_SMS = 132


@dataclass
class Launch:
    variant: str          # short name, used in the output file name
    kernel_name: str      # attribute of the TileGym module
    args: tuple           # as the launcher passes them (Array / Scalar / constant values)
    hints: dict = field(default_factory=dict)  # replace_hints() arguments; empty = the decorator's
    note: str = ""        # the launcher choice this mirrors


@dataclass
class Recipe:
    module: str           # tilegym.ops.cutile.<module>
    defaults: dict
    build: object         # (config) -> list[Launch]
    doc: str


def next_power_of_2(n):
    return 1 << (n - 1).bit_length() if n > 0 else 1


def cdiv(a, b):
    return (a + b - 1) // b


# softmax: tilegym/ops/cutile/softmax.py; bench_softmax runs M 4096, N 1024..16384, f32/bf16.
def _softmax(c):
    m, n, e = c["M"], c["N"], dtype(c["dtype"])
    x, y = Array(e, (m, n)), Array(e, (m, n))
    tile = next_power_of_2(n)
    # Gather kernel tunes num_worker_warps over (None, 4, 8); the first keeps the compiler default.
    gather_hints = {} if c["num_worker_warps"] is None else {"num_worker_warps": c["num_worker_warps"]}
    return [
        Launch("gather", "_softmax_kernel", (y, x, m, tile, n), gather_hints,
               "default path (use_tma=False): persistent gather/scatter, occupancy 4 from the decorator"),
        Launch("multi_wave", "_softmax_kernel_multi_wave_full_row_reg_cached_ldg", (y, x, n, tile), {},
               "use_multi_wave=True: one tile block per row, gather/scatter"),
        Launch("tma", "_softmax_kernel_tma", (y, x, m, n, tile), {"occupancy": c["tma_occupancy"]},
               "use_tma=True: persistent load/store views with NEG_INF padding; occupancy tuned over (2, 4, 6, 8)"),
        Launch("chunked", "_softmax_kernel_chunked", (y, x, m, n, min(tile, 8192)), {},
               "use_chunked=True: three-pass online softmax over chunks of at most 8192, occupancy 4"),
    ]


# rms_norm: tilegym/ops/cutile/rms_norm.py; bench_rmsnorm runs M 4096, N 1024..16384, f16/bf16.
def _rms_norm(c):
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


# layer_norm_legacy: tilegym/ops/cutile/layer_norm_legacy.py; bench_layernorm runs M 4096, N 2^5..2^14, f16.
def _layer_norm_legacy(c):
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


# persistent_layer_norm: tilegym/ops/cutile/layer_norm_legacy.py; its benchmark runs M 30000/128000,
# N 256..10000, bf16. The configuration TileGym's autotuning picks on the H200 at M 30000, N 1024 (BLOCK_N 8,
# num_ctas 1, num_worker_warps 4; bench/results/2026-11-30_h200_ops_quick_autotune.json, tilegym_autotune):
# the kernel cuTile Python runs there. Its untuned default (TILEGYM_DISABLE_AUTOTUNE) has 8 worker warps.
def _persistent_layer_norm(c):
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


# matmul: tilegym/ops/cutile/matmul.py; bench_matrix_multiplication runs M=N=K 2^10..2^14, f16.
def _matmul(c):
    m, n, k, e = c["M"], c["N"], c["K"], dtype(c["dtype"])
    a, b, out = Array(e, (m, k)), Array(e, (k, n)), Array(e, (m, n))
    p = c
    return [
        Launch("matmul", "_matmul_kernel", (a, b, out, p["tile_m"], p["tile_n"], p["tile_k"]),
               {"num_ctas": p["num_ctas"], "occupancy": p["occupancy"]},
               "static_persistent=False: first H200 autotune candidate (128, 128, 32, num_ctas 1, occupancy 1)"),
        Launch("static_persistent", "_static_persistent_matmul_kernel",
               (a, b, out, Scalar(m), Scalar(n), Scalar(k), p["sp_tile_m"], p["sp_tile_n"], p["sp_tile_k"],
                False, False, 8, p["sp_load_latency"]),
               {"num_ctas": p["sp_num_ctas"], "occupancy": p["sp_occupancy"]},
               "static_persistent=True: first H200 candidate (128, 512, 64, GROUP 8, num_ctas 4, occupancy 1, "
               "LOAD_LATENCY -1)"),
    ]


# group_gemm: tilegym/ops/cutile/group_gemm.py; bench_group_gemm runs M = N = K 1024..4096 with 4 or 16
# groups of one size, f16. Autotuned: the first H200 candidate (128, 128, 128, num_ctas 1, occupancy 1).
def _group_gemm(c):
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


# fmha: tilegym/ops/cutile/attention.py; bench_fused_attention runs B 4, H 32, D 128, N 1024..16384, f16.
def _attention(c):
    b, h, s, d, e = c["B"], c["H"], c["S"], c["D"], dtype(c["dtype"])
    s_kv = c["S_kv"] or s
    h_kv = c["H_kv"] or h
    q, o = Array(e, (b, h, s, d)), Array(e, (b, h, s, d))
    k, v = Array(e, (b, h_kv, s_kv, d)), Array(e, (b, h_kv, s_kv, d))
    sm_scale = 1.0 / math.sqrt(d)
    even_k = s_kv % 128 == 0  # max TILE_N over the candidates
    args = (q, k, v, o, Scalar(sm_scale), Scalar(s_kv - s), d, h, c["tile_m"], c["tile_n"], h // h_kv,
            bool(c["causal"]), even_k)
    return [
        Launch("fmha", "_fmha_kernel", args, {"occupancy": c["occupancy"]},
               "forward (autotuned path): tiles of the first H200 candidate (256, 128); the tuned kernel is "
               "relaunched with replace_hints(occupancy=2)"),
    ]


# ---- activations (tilegym/ops/cutile/activation/*.py, silu_and_mul.py, swiglu.py)

_GELU_MODES = {"none": 0, "tanh": 1}  # GELU_EXACT, GELU_TANH of activation/gelu.py


# relu: activation/relu.py; test_relu's largest configuration, (256, 32768) f16, flattened.
def _relu(c):
    n, e = c["M"] * c["N"], dtype(c["dtype"])
    return [Launch("forward", "_relu_fwd_kernel", (Array(e, (n,)), Array(e, (n,)), n, 1024), {},
                   "the only kernel: gather/scatter of BLOCK_SIZE 1024 flattened elements")]


# gelu: activation/gelu.py; test_gelu's configuration (256, 2048), flattened.
def _gelu(c):
    n, e, mode = c["M"] * c["N"], dtype(c["dtype"]), _GELU_MODES[c["approximate"]]
    block = 4096 if n >= 1 << 24 else 1024
    return [
        Launch("forward", "_gelu_kernel", (Array(e, (n,)), Array(e, (n,)), n, block, mode), {},
               f"forward: gather/scatter of BLOCK_SIZE {block} (4096 from 2^24 elements)"),
        Launch("backward", "_gelu_kernel_backward", (Array(e, (n,)), Array(e, (n,)), Array(e, (n,)), n, 1024, mode),
               {}, "backward: gather/scatter of BLOCK_SIZE 1024, computed in f32"),
    ]


# geglu: activation/geglu.py; test_geglu's perf configuration, x (256, 64, 16, 128) split on dim 3:
# M = 256 * 64 * 16 rows of 2N = 128, flattened.
def _geglu(c):
    m, n, e, mode = c["M"], c["N"], dtype(c["dtype"]), _GELU_MODES[c["approximate"]]
    x, y = Array(e, (m * 2 * n,)), Array(e, (m * n,))
    return [
        Launch("forward", "_geglu_fwd_kernel", (y, x, n, 2 * n, n, 256, mode), {},
               "forward: gathers of BLOCK_SIZE 256 flattened outputs, m = i // N, n = i % N"),
        Launch("backward", "_geglu_bwd_kernel", (Array(e, (m * 2 * n,)), Array(e, (m * n,)), x, n, 2 * n, n, 256, mode),
               {}, "backward: the same gathers, scatters of both halves of dx"),
    ]


# silu_and_mul: silu_and_mul.py; bench_silu_and_mul runs M 2^10..2^14 at hidden 2048, f16/f32.
def _silu_and_mul(c):
    m, h, e = c["M"], c["H"], dtype(c["dtype"])
    tile = next_power_of_2(h)
    tile_bytes = tile * e.bitwidth // 8
    # _silu_autotune_settings on sm_90; occupancy's first autotune candidate is None (the default).
    hints = {"num_ctas": 1 if tile_bytes <= 8192 else 2, "num_worker_warps": 4 if tile_bytes <= 2048 else 8}
    x = Array(e, (m, 2 * h))
    return [
        Launch("forward", "_silu_and_mul_kernel_row_wise", (x, Array(e, (m, h)), tile, h), hints,
               "forward: one row per block, gathers of next_power_of_2(H)"),
        Launch("backward", "_silu_and_mul_backward_kernel_row_wise",
               (Array(e, (m, h)), x, Array(e, (m, h)), Array(e, (m, h)), tile, h), hints,
               "backward: one row per block, da and db as separate (M, H) outputs"),
    ]


# swiglu: swiglu.py; bench_swiglu runs batch 1/4/8 x M 128/4096 rows, N 1024..16384, f16/bf16/f32.
def _swiglu(c):
    rows, n, e = c["batch"] * c["M"], c["N"], dtype(c["dtype"])
    tile = next_power_of_2(n)
    bwd_tile = next_power_of_2(int(n / cdiv(c["num_sms"], rows)))
    a, b = Array(e, (rows, n)), Array(e, (rows, n))
    return [
        Launch("forward", "_swiglu_forward_kernel", (a, b, Array(e, (rows, n)), tile, tile != n), {},
               "forward: one row per block, gathers; occupancy 1 and 8 worker warps from the decorator"),
        Launch("backward", "_swiglu_backward_kernel",
               (Array(e, (rows, n)), a, b, Array(e, (rows, n)), Array(e, (rows, n)), bwd_tile), {},
               "backward: (1, TILE) load/store views, TILE = next_power_of_2(N / ceil(SMs / rows))"),
    ]


# rope: tilegym/ops/cutile/rope.py; bench_rope runs B 1, H 16, D 64, S 4096..32768, f16, q and k
# contiguous (B, H, S, D), cos/sin (1, S, D) (expanded to B).
def _rope(c):
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


# dropout: tilegym/ops/cutile/dropout.py; bench_dropout runs M 2^20..2^26, p 0.5, f16/f32.
def _dropout(c):
    m, e, p = c["M"], dtype(c["dtype"]), float(c["p"])
    x, y = Array(e, (m,)), Array(e, (m,))
    mixed = (int(c["seed"]) * 2654435761) & 0xFFFFFFFF
    seed = mixed - (1 << 32) if mixed >= 0x80000000 else mixed
    return [
        Launch("dropout", "_dropout_kernel", (x, y, p, seed, 1024, True), {},
               "training, not in place: 1-D gather/scatter tiles of 1024, p and the _mix_seed'ed seed compiled "
               "in (in place launches the same kernel with output = x)"),
    ]


RECIPES = {
    "softmax": Recipe("softmax", {"M": 4096, "N": 4096, "dtype": "bf16", "num_worker_warps": None,
                                  "tma_occupancy": 2}, _softmax,
                      "row softmax over (M, N): gather, multi_wave, tma, chunked"),
    "rms_norm": Recipe("rms_norm", {"M": 4096, "N": 4096, "dtype": "bf16", "eps": 1e-5, "offset": 0.0,
                                    "num_sms": H200_SMS}, _rms_norm,
                       "RMSNorm over (M, N) with weight (N,): static_persistent, multi_wave_reload, "
                       "multi_wave_cached, backward"),
    "layer_norm_legacy": Recipe("layer_norm_legacy", {"M": 4096, "N": 4096, "dtype": "f16", "eps": 1e-5,
                                                      "weight_shift": 0.0}, _layer_norm_legacy,
                                "LayerNorm over (M, N), one row per block in column tiles"),
    "persistent_layer_norm": Recipe("layer_norm_legacy", {"M": 30000, "N": 1024, "dtype": "bf16", "eps": 1e-6,
                                                          "block_n": 8, "num_worker_warps": 4,
                                                          "num_sms": H200_SMS}, _persistent_layer_norm,
                                    "persistent LayerNorm over (M, N): BLOCK_N-row tiles, one block per SM"),
    "matmul": Recipe("matmul", {"M": 4096, "N": 4096, "K": 4096, "dtype": "f16",
                                "tile_m": 128, "tile_n": 128, "tile_k": 32, "num_ctas": 1, "occupancy": 1,
                                "sp_tile_m": 128, "sp_tile_n": 512, "sp_tile_k": 64, "sp_num_ctas": 4,
                                "sp_occupancy": 1, "sp_load_latency": -1}, _matmul,
                     "C = A @ B with A (M, K), B (K, N): matmul, static_persistent"),
    "group_gemm": Recipe("group_gemm", {"M": 2048, "N": 2048, "K": 2048, "groups": 4, "dtype": "f16",
                                        "transpose_b": False, "tile_m": 128, "tile_n": 128, "tile_k": 128,
                                        "num_ctas": 1, "occupancy": 1}, _group_gemm,
                         "C_g = A_g @ B_g over lists of (M, K) and (K, N) matrices: group_gemm"),
    "attention": Recipe("attention", {"B": 4, "H": 32, "S": 4096, "D": 128, "dtype": "f16", "causal": True,
                                      "S_kv": None, "H_kv": None, "tile_m": 256, "tile_n": 128,
                                      "occupancy": 2}, _attention,
                        "fused attention forward, q/k/v (B, H, S, D): fmha"),
    "rope": Recipe("rope", {"B": 1, "H": 16, "S": 4096, "D": 64, "dtype": "f16", "H_kv": None,
                            "partial_rotary_factor": 1.0, "occupancy": 9}, _rope,
                   "rotary embedding in place on q (B, H, S, D) and k (B, H_kv, S, D): rope"),
}
RECIPES["dropout"] = Recipe("dropout", {"M": 1 << 24, "dtype": "f16", "p": 0.5, "seed": 0}, _dropout,
                            "dropout of a flat (M,) tensor in training mode: dropout")
RECIPES["fmha"] = RECIPES["attention"]
RECIPES.update({
    "relu": Recipe("activation.relu", {"M": 256, "N": 32768, "dtype": "f16"}, _relu, "ReLU, flattened: forward"),
    "gelu": Recipe("activation.gelu", {"M": 256, "N": 2048, "dtype": "f16", "approximate": "tanh"}, _gelu,
                   "GELU, flattened: forward, backward"),
    "geglu": Recipe("activation.geglu", {"M": 262144, "N": 64, "dtype": "f16", "approximate": "none"}, _geglu,
                    "a * gelu(b) over the halves of (M, 2N): forward, backward"),
    "silu_and_mul": Recipe("silu_and_mul", {"M": 4096, "H": 2048, "dtype": "f16"}, _silu_and_mul,
                           "silu(x[:, :H]) * x[:, H:]: forward, backward"),
    "swiglu": Recipe("swiglu", {"batch": 4, "M": 4096, "N": 4096, "dtype": "f16", "num_sms": H200_SMS}, _swiglu,
                     "silu(a) * b: forward, backward"),
})
