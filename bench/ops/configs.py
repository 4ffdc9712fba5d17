"""Benchmark configurations of the ported TileGym ops, in one place.

Each op is an OpSpec: its TileGym dispatcher name, family, where its configurations come from (TileGym
1.5.1's tests/benchmark/bench_<op>.py; where TileGym has none, its tests/ops test_perf or test_op shapes,
said in `source`), the configurations (a `quick` subset is marked), the input builder, the call per
backend, the check against torch with TileGym's tolerances, and the bytes (or flops) formula TileGym
uses for its GB/s (TFLOP/s) column.

Backends: "cutile-cpp" (this library, through TileGym's dispatcher), "cutile" (TileGym's cuTile Python
kernels), "triton" (TileGym's Triton kernels, where ops/triton has the op) go through
`tilegym.ops.<op>(..., backend=NAME)`; "cutile-untuned" is "cutile" with TileGym's autotuning switched off
(TILEGYM_DISABLE_AUTOTUNE=1 around each call: its fixed defaults, which are what cutile-cpp ports);
"pytorch" calls the torch reference TileGym's benchmark registers ("torch"), which is also the reference of
the correctness check.
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass, field
from typing import Any, Callable

import torch
import torch.nn.functional as F

TILEGYM_BACKENDS = ("cutile-cpp", "cutile", "cutile-untuned", "triton")
BACKENDS = TILEGYM_BACKENDS + ("pytorch",)
UNTUNED = "cutile-untuned"
DISABLE_AUTOTUNE_ENV = "TILEGYM_DISABLE_AUTOTUNE"  # read by TileGym at every call
# --family names: the families of DESIGN.md §6, and elementwise_norm for all the ops here.
FAMILY_GROUPS = {"elementwise_norm": ("elementwise", "normalization", "position")}


@dataclass
class Config:
    params: dict
    quick: bool = False

    @property
    def id(self) -> str:
        """e.g. M4096-N1024-bfloat16-tma: numbers after their names, dtypes and variant names alone."""
        return "-".join(_short(v) if isinstance(v, (str, torch.dtype)) else f"{k}{_short(v)}"
                        for k, v in self.params.items())


@dataclass
class OpSpec:
    name: str  # harness name (--op)
    tilegym_op: str  # the dispatcher's name: tilegym.backend.dispatcher._REGISTRY key
    family: str
    source: str  # where the configurations and the formula come from
    metric: str  # "GB/s" (bytes) or "TFLOP/s" (flops)
    configs: list[Config]
    tiny: dict  # a small configuration for the host launch overhead
    build: Callable[[dict, torch.device], dict]  # params, device -> inputs
    call: Callable[[str, dict, dict], Callable[[], Any]]  # backend, params, inputs -> a zero-argument call
    check: Callable[[Any, dict, dict], None]  # output, params, inputs; raises AssertionError
    amount: Callable[[dict, dict], int]  # params, inputs -> bytes moved (GB/s) or flops (TFLOP/s)
    triton: bool = False  # TileGym has a Triton implementation (ops/triton)
    # Parameters that pick among a kernel's variants: backends that have no such variants (pytorch,
    # triton) run the same call for every value, so they are measured once per remaining parameters.
    variant_params: tuple = ()
    notes: str = ""
    backends: tuple = field(default=BACKENDS)

    def backends_for(self) -> tuple:
        return tuple(b for b in self.backends if b != "triton" or self.triton)

    def invoke(self, backend: str, params: dict, inputs: dict) -> Callable[[], Any]:
        """The zero-argument call of `backend`; cutile-untuned is TileGym's cutile with autotuning off."""
        if backend != UNTUNED:
            return self.call(backend, params, inputs)
        fn = self.call("cutile", params, inputs)

        def untuned():
            before = os.environ.get(DISABLE_AUTOTUNE_ENV)
            os.environ[DISABLE_AUTOTUNE_ENV] = "1"
            try:
                return fn()
            finally:
                if before is None:
                    del os.environ[DISABLE_AUTOTUNE_ENV]
                else:
                    os.environ[DISABLE_AUTOTUNE_ENV] = before

        return untuned


def _short(value) -> str:
    if isinstance(value, torch.dtype):
        return str(value).removeprefix("torch.")
    if isinstance(value, (tuple, list)):
        return "x".join(str(v) for v in value)
    return str(value)


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def public_op(name: str):
    """tilegym.ops.<name> (activations live in tilegym.ops.activation)."""
    import tilegym.ops

    if hasattr(tilegym.ops, name):
        return getattr(tilegym.ops, name)
    return getattr(tilegym.ops.activation, name)


def tilegym_call(name: str, backend: str, *args, **kwargs):
    return lambda: public_op(name)(*args, backend=backend, **kwargs)


def close(rtol: float, atol: float):
    def check(out, ref):
        if isinstance(out, (tuple, list)):
            out = out[0]
        torch.testing.assert_close(out, ref, rtol=rtol, atol=atol)

    return check


def numel_bytes(*tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


# --- elementwise -------------------------------------------------------------------------------------


def _relu_build(p, device):
    return {"x": torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]) - 0.5}


def _relu_call(backend, p, x):
    if backend == "pytorch":
        return lambda: F.relu(x["x"])
    return tilegym_call("relu", backend, x["x"])


RELU = OpSpec(
    name="relu",
    tilegym_op="relu",
    family="elementwise",
    source="TileGym has no benchmark and no test_perf for relu: the shapes of tests/ops/activation/test_relu.py "
    "test_op, plus (4096, 16384) f16/f32 added here to reach the bandwidth regime; x = rand - 0.5; tol (1e-5, 1e-8)",
    metric="GB/s",
    configs=[
        Config({"M": 256, "N": 64, "dtype": torch.float16}),
        Config({"M": 256, "N": 256, "dtype": torch.float16}),
        Config({"M": 256, "N": 2048, "dtype": torch.float32}, quick=True),
        Config({"M": 256, "N": 32768, "dtype": torch.float16}),
        Config({"M": 4096, "N": 16384, "dtype": torch.float16}, quick=True),
        Config({"M": 4096, "N": 16384, "dtype": torch.float32}),
    ],
    tiny={"M": 256, "N": 64, "dtype": torch.float16},
    build=_relu_build,
    call=_relu_call,
    check=lambda out, p, x: close(1e-5, 1e-8)(out, F.relu(x["x"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),  # read x, write y
)


def _gelu_build(p, device):
    return {"x": torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]).mul_(0.5).add_(-2.3)}


def _gelu_call(backend, p, x):
    if backend == "pytorch":
        return lambda: F.gelu(x["x"], approximate=p["approximate"])
    return tilegym_call("gelu", backend, x["x"], approximate=p["approximate"])


GELU = OpSpec(
    name="gelu",
    tilegym_op="gelu",
    family="elementwise",
    source="TileGym has no benchmark and no test_perf for gelu: the shapes of tests/ops/activation/test_gelu.py "
    "test_op, plus (4096, 16384) f16 added here; x = rand*0.5 - 2.3; tol (0, 1e-2)",
    metric="GB/s",
    configs=[
        Config({"M": 256, "N": 2048, "approximate": a, "dtype": d}, quick=(d == torch.float16 and a == "tanh"))
        for d in (torch.float32, torch.float16)
        for a in ("none", "tanh")
    ]
    + [Config({"M": 4096, "N": 16384, "approximate": a, "dtype": torch.float16}, quick=True) for a in ("none", "tanh")],
    tiny={"M": 256, "N": 64, "approximate": "none", "dtype": torch.float16},
    build=_gelu_build,
    call=_gelu_call,
    check=lambda out, p, x: close(0.0, 1e-2)(out, F.gelu(x["x"], approximate=p["approximate"])),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
)


def _geglu_ref(x, dim, approximate):
    a, b = x.chunk(2, dim=dim)
    return a * F.gelu(b, approximate=approximate)


def _geglu_build(p, device):
    return {"x": torch.rand(p["shape"], device=device, dtype=p["dtype"])}


def _geglu_call(backend, p, x):
    if backend == "pytorch":
        return lambda: _geglu_ref(x["x"], p["dim"], p["approximate"])
    return tilegym_call("geglu", backend, x["x"], p["dim"], p["approximate"])


GEGLU = OpSpec(
    name="geglu",
    tilegym_op="geglu",
    family="elementwise",
    source="TileGym has no benchmark for geglu: tests/ops/activation/test_geglu.py test_perf configurations "
    "(forward only here; inputs without requires_grad); x = rand; tol (1e-2, 1e-2); bytes = x + y",
    metric="GB/s",
    configs=[
        Config({"shape": (256, 64, 16, 128), "dim": 3, "approximate": a, "dtype": torch.float16}, quick=(a == "none"))
        for a in ("none", "tanh")
    ],
    tiny={"shape": (16, 64), "dim": 1, "approximate": "none", "dtype": torch.float16},
    build=_geglu_build,
    call=_geglu_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, _geglu_ref(x["x"], p["dim"], p["approximate"])),
    amount=lambda p, x: numel_bytes(x["x"]) * 3 // 2,  # read x, write half of it
)


def _silu_and_mul_ref(x):
    h = x.shape[-1] // 2
    return F.silu(x[..., :h]) * x[..., h:]


def _silu_and_mul_build(p, device):
    return {"x": torch.randn(p["M"], 2 * p["hidden"], device=device, dtype=p["dtype"])}


def _silu_and_mul_call(backend, p, x):
    if backend == "pytorch":
        return lambda: _silu_and_mul_ref(x["x"])
    return tilegym_call("silu_and_mul", backend, x["x"])


SILU_AND_MUL = OpSpec(
    name="silu_and_mul",
    tilegym_op="silu_and_mul",
    family="elementwise",
    source="tests/benchmark/bench_silu_and_mul.py: M 1024..16384, hidden 2048, f16/f32; x = randn (M, 2*hidden); "
    "tol (1e-2, 1e-2); bytes = input + output (TileGym times with a CUDA graph; see method)",
    metric="GB/s",
    configs=[
        Config({"M": 2**i, "hidden": 2048, "dtype": d}, quick=(d == torch.float16 and i in (10, 14)))
        for d in (torch.float16, torch.float32)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "hidden": 64, "dtype": torch.float16},
    build=_silu_and_mul_build,
    call=_silu_and_mul_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, _silu_and_mul_ref(x["x"])),
    amount=lambda p, x: numel_bytes(x["x"]) * 3 // 2,
)


def _swiglu_build(p, device):
    shape = (p["batch"], p["M"], p["N"])
    return {name: torch.randn(shape, device=device, dtype=p["dtype"]) for name in ("a", "b")}


def _swiglu_call(backend, p, x):
    a, b = x["a"], x["b"]
    if backend == "pytorch":
        return lambda: F.silu(a) * b
    fn = public_op("get_swiglu")(backend=backend)
    return lambda: fn(a, b)


def _swiglu_check(out, p, x):
    tol = 1e-5 if p["dtype"] == torch.float32 else 1e-2
    close(tol, tol)(out, F.silu(x["a"]) * x["b"])


SWIGLU = OpSpec(
    name="swiglu",
    tilegym_op="get_swiglu",
    family="elementwise",
    source="tests/benchmark/bench_swiglu.py: batch {1,4,8} x M {128,4096} x N 1024..16384, f16/bf16/f32; "
    "a, b = randn; tol f32 (1e-5, 1e-5), else (1e-2, 1e-2); bytes = 3 tensors (a, b read, out written)",
    metric="GB/s",
    configs=[
        Config({"batch": bs, "M": m, "N": 2**i, "dtype": d},
               quick=(bs == 4 and m == 4096 and d == torch.bfloat16 and i in (10, 14)))
        for d in (torch.float16, torch.bfloat16, torch.float32)
        for bs in (1, 4, 8)
        for m in (128, 4096)
        for i in range(10, 15)
    ],
    tiny={"batch": 1, "M": 4, "N": 64, "dtype": torch.float16},
    build=_swiglu_build,
    call=_swiglu_call,
    check=_swiglu_check,
    amount=lambda p, x: 3 * numel_bytes(x["a"]),
)


def _dropout_build(p, device):
    return {"x": torch.rand(p["M"], device=device, dtype=p["dtype"]), "seed": 1234}


def _dropout_call(backend, p, x):
    if backend == "pytorch":
        return lambda: F.dropout(x["x"], p=p["p"], training=True, inplace=False)
    return tilegym_call("dropout", backend, x["x"], x["seed"], p["p"], True, False)


def _dropout_check(out, p, x):
    """TileGym's check (the zero fraction within 0.04 of p), and every kept element equals x / (1 - p)."""
    if isinstance(out, (tuple, list)):
        out = out[0]
    assert out.shape == x["x"].shape and out.dtype == x["x"].dtype, f"output {out.shape} {out.dtype}"
    zero_ratio = 1.0 - torch.count_nonzero(out).item() / out.numel()
    assert abs(zero_ratio - p["p"]) < 0.04, f"zero fraction {zero_ratio:.4f} for p = {p['p']}"
    kept = out != 0
    torch.testing.assert_close(out[kept], x["x"][kept] / (1.0 - p["p"]), rtol=1e-2, atol=1e-2)


DROPOUT = OpSpec(
    name="dropout",
    tilegym_op="dropout",
    family="elementwise",
    source="tests/benchmark/bench_dropout.py: M 2^20, 2^22, 2^24, 2^26, f16/f32, p 0.5, training, not in place; "
    "x = rand; check: zero fraction within 0.04 of p (TileGym) and kept values = x/(1-p); bytes = 2 * x",
    metric="GB/s",
    configs=[
        Config({"M": 2**i, "p": 0.5, "dtype": d}, quick=(d == torch.float16 and i in (20, 26)))
        for d in (torch.float16, torch.float32)
        for i in range(20, 28, 2)
    ],
    tiny={"M": 16384, "p": 0.5, "dtype": torch.float16},  # enough elements for the zero-fraction check
    build=_dropout_build,
    call=_dropout_call,
    check=_dropout_check,
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
    triton=True,
)

# --- normalization -----------------------------------------------------------------------------------

SOFTMAX_VARIANTS = {  # bench_softmax.py's (use_tma, use_chunked, use_multi_wave) lines
    "baseline": (False, False, False),
    "tma": (True, False, False),
    "chunked": (False, True, False),
    "multi_wave": (False, False, True),
}


def _softmax_build(p, device):
    return {"x": torch.randn(p["M"], p["N"], device=device, dtype=p["dtype"])}


def _softmax_call(backend, p, x):
    if backend == "pytorch":
        return lambda: F.softmax(x["x"], dim=-1)
    tma, chunked, multi_wave = SOFTMAX_VARIANTS[p["variant"]]
    return tilegym_call("softmax", backend, x["x"], use_tma=tma, use_chunked=chunked, use_multi_wave=multi_wave)


SOFTMAX = OpSpec(
    name="softmax",
    tilegym_op="softmax",
    family="normalization",
    source="tests/benchmark/bench_softmax.py: M 4096, N 1024..16384, f32/bf16, variants baseline/tma/chunked/"
    "multi_wave; x = randn; tol (1e-2, 1e-2); bytes = 2 * x",
    metric="GB/s",
    configs=[
        Config({"M": 4096, "N": 2**i, "dtype": d, "variant": v}, quick=(d == torch.bfloat16 and i in (10, 14)))
        for v in SOFTMAX_VARIANTS
        for d in (torch.float32, torch.bfloat16)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.float32, "variant": "baseline"},
    build=_softmax_build,
    call=_softmax_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, F.softmax(x["x"], dim=-1)),
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
    variant_params=("variant",),
)


def _rms_norm_build(p, device):
    x = torch.rand(p["M"], p["N"], device=device, dtype=p["dtype"]).mul_(0.5).add_(-2.3)
    return {"x": x, "w": torch.randn(p["N"], device=device, dtype=p["dtype"]), "eps": 1e-5}


def _rms_norm_call(backend, p, x):
    shape = (p["N"],)
    if backend == "pytorch":
        return lambda: F.rms_norm(x["x"], shape, weight=x["w"], eps=x["eps"])
    mode = None if backend == "triton" else p["mode"]
    return tilegym_call("rms_norm", backend, x["x"], shape, x["w"], x["eps"], mode=mode)


RMS_NORM = OpSpec(
    name="rms_norm",
    tilegym_op="rms_norm",
    family="normalization",
    source="tests/benchmark/bench_rmsnorm.py: M 4096, N 1024..16384, f16/bf16; cutile modes static_persistent, "
    "multi_wave_reload, multi_wave_cached (triton: mode None); x = rand*0.5 - 2.3, w = randn, eps 1e-5; "
    "tol (0, 5e-2) vs F.rms_norm; bytes = x + w + y",
    metric="GB/s",
    configs=[
        Config({"M": 4096, "N": 2**i, "dtype": d, "mode": m},
               quick=(d == torch.bfloat16 and i in (10, 14) and m == "static_persistent"))
        for m in ("static_persistent", "multi_wave_reload", "multi_wave_cached")
        for d in (torch.float16, torch.bfloat16)
        for i in range(10, 15)
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.float16, "mode": "static_persistent"},
    build=_rms_norm_build,
    call=_rms_norm_call,
    check=lambda out, p, x: close(0.0, 5e-2)(out, F.rms_norm(x["x"], (p["N"],), weight=x["w"], eps=x["eps"])),
    amount=lambda p, x: numel_bytes(x["x"], x["w"], x["x"]),
    triton=True,
    variant_params=("mode",),
)


def _layer_norm_build(p, device):
    n = p["N"]
    return {
        "x": torch.randn(p["M"], n, device=device, dtype=p["dtype"]),
        "w": torch.randn(n, device=device, dtype=p["dtype"]),
        "b": torch.randn(n, device=device, dtype=p["dtype"]),
        "eps": 1e-6,
    }


def _layer_norm_caller(op):
    def call(backend, p, x):
        shape = (p["N"],)
        if backend == "pytorch":
            return lambda: F.layer_norm(x["x"], shape, x["w"], x["b"], x["eps"])
        return tilegym_call(op, backend, input=x["x"], normalized_shape=shape, weight=x["w"], bias=x["b"], eps=x["eps"])

    return call


def _layer_norm_check(out, p, x):
    close(1e-2, 1e-2)(out, F.layer_norm(x["x"], (p["N"],), x["w"], x["b"], x["eps"]))


_LN_N = (256, 1024, 2048, 4096, 8192, 16384)

LAYER_NORM_LEGACY = OpSpec(
    name="layer_norm_legacy",
    tilegym_op="layer_norm_legacy",
    family="normalization",
    source="tests/benchmark/bench_layernorm.py (bench_legacy_layer_norm): M 4096, N 256..16384, bf16, eps 1e-6; "
    "x, w, b = randn; tol (1e-2, 1e-2) vs F.layer_norm; bytes = 2x + w + b",
    metric="GB/s",
    configs=[Config({"M": 4096, "N": n, "dtype": torch.bfloat16}, quick=n in (1024, 16384)) for n in _LN_N],
    tiny={"M": 4, "N": 64, "dtype": torch.bfloat16},
    build=_layer_norm_build,
    call=_layer_norm_caller("layer_norm_legacy"),
    check=_layer_norm_check,
    amount=lambda p, x: numel_bytes(x["x"], x["x"], x["w"], x["b"]),
    triton=True,
)

PERSISTENT_LAYER_NORM = OpSpec(
    name="persistent_layer_norm",
    tilegym_op="persistent_layer_norm",
    family="normalization",
    source="tests/benchmark/bench_layernorm.py (bench_persistent_layer_norm): M 30000/128000, N 256..16384, bf16, "
    "eps 1e-6; x, w, b = randn; output [0] checked, tol (1e-2, 1e-2); bytes = 2x + w + b",
    metric="GB/s",
    configs=[
        Config({"M": m, "N": n, "dtype": torch.bfloat16}, quick=(m == 30000 and n in (1024, 16384)))
        for m in (30000, 128000)
        for n in _LN_N
    ],
    tiny={"M": 4, "N": 64, "dtype": torch.bfloat16},
    build=_layer_norm_build,
    call=_layer_norm_caller("persistent_layer_norm"),
    check=_layer_norm_check,
    amount=lambda p, x: numel_bytes(x["x"], x["x"], x["w"], x["b"]),
    triton=True,
)

# --- position ------------------------------------------------------------------------------------------


def _rope_tables(seq_len, head_dim, dtype, device, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=device) / head_dim))
    angles = torch.outer(torch.arange(seq_len, device=device, dtype=torch.float32), inv)
    cos, sin = torch.cos(angles).to(dtype), torch.sin(angles).to(dtype)
    return torch.cat([cos, cos], dim=-1), torch.cat([sin, sin], dim=-1)


def _rotate_half(t):
    h = t.shape[-1] // 2
    return torch.cat((-t[..., h:], t[..., :h]), dim=-1)


def _rope_ref(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def _rope_build(p, device):
    b, h, s, d, dtype = p["B"], p["H"], p["S"], p["D"], p["dtype"]
    cos, sin = _rope_tables(s, d, dtype, device)
    return {
        "q": torch.randn(b, h, s, d, device=device, dtype=dtype),
        "k": torch.randn(b, h, s, d, device=device, dtype=dtype),
        "cos": cos.unsqueeze(0).expand(b, -1, -1),
        "sin": sin.unsqueeze(0).expand(b, -1, -1),
        "pos": torch.arange(s, device=device, dtype=torch.long).unsqueeze(0).expand(b, -1),
    }


def _rope_call(backend, p, x):
    """The kernels rotate q and k in place: timing calls them on the same buffers again and again (a
    rotation keeps the values bounded), where TileGym's benchmark times q.clone() and k.clone() too; the
    check gives each backend fresh clones."""
    if backend == "pytorch":
        return lambda: _rope_ref(x["q"], x["k"], x["cos"], x["sin"])
    return tilegym_call("apply_rope_base", backend, x["q"], x["k"], x["cos"], x["sin"], x["pos"])


def _rope_check(out, p, x):
    q_ref, k_ref = _rope_ref(x["q0"], x["k0"], x["cos"], x["sin"])
    torch.testing.assert_close(out[0], q_ref, rtol=1e-2, atol=1e-2)
    torch.testing.assert_close(out[1], k_ref, rtol=1e-2, atol=1e-2)


ROPE = OpSpec(
    name="rope",
    tilegym_op="apply_rope_base",
    family="position",
    source="tests/benchmark/bench_rope.py: B 1, H 16, S 4096..32768, D 64, f16; q, k = randn (B, H, S, D), cos/sin "
    "tables expanded over B; tol (1e-2, 1e-2); bytes = 2q + 2k + cos + sin; timed in place without the clones",
    metric="GB/s",
    configs=[Config({"B": 1, "H": 16, "S": 2**i, "D": 64, "dtype": torch.float16}, quick=i in (12, 15))
             for i in range(12, 16)],
    tiny={"B": 1, "H": 2, "S": 8, "D": 64, "dtype": torch.float16},
    build=_rope_build,
    call=_rope_call,
    check=_rope_check,
    amount=lambda p, x: (2 * numel_bytes(x["q"]) + 2 * numel_bytes(x["k"])  # q, k read and written
                         + 2 * p["B"] * p["S"] * p["D"] * x["q"].element_size()),  # cos, sin
    triton=True,
)

OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (RELU, GELU, GEGLU, SILU_AND_MUL, SWIGLU, DROPOUT, SOFTMAX, RMS_NORM, LAYER_NORM_LEGACY,
                 PERSISTENT_LAYER_NORM, ROPE)
}
FAMILIES = sorted({spec.family for spec in OPS.values()})


def in_place_inputs(spec: OpSpec, inputs: dict) -> dict:
    """Inputs for one checked call: ops that write their inputs get fresh clones (kept as <name>0 for the
    reference)."""
    if spec.name != "rope":
        return inputs
    fresh = dict(inputs, q0=inputs["q"].clone(), k0=inputs["k"].clone())
    fresh["q"], fresh["k"] = inputs["q"].clone(), inputs["k"].clone()
    return fresh


def select(ops: list[str] | None = None, families: list[str] | None = None) -> list[OpSpec]:
    names = list(OPS)
    if ops:
        unknown = [o for o in ops if o not in OPS]
        if unknown:
            raise ValueError(f"unknown op(s) {', '.join(unknown)}; ops: {', '.join(OPS)}")
        names = [n for n in names if n in ops]
    if families:
        wanted = set(itertools.chain.from_iterable(FAMILY_GROUPS.get(f, (f,)) for f in families))
        unknown = wanted - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown family {', '.join(sorted(unknown))}; families: "
                             f"{', '.join(FAMILIES + sorted(FAMILY_GROUPS))}")
        names = [n for n in names if OPS[n].family in wanted]
    return [OPS[n] for n in names]


def geomean(values) -> float | None:
    values = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None
