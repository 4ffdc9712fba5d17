"""matmul: c = a @ b, TileGym's two kernels (one tile per block, static persistent)."""

import torch

from configs import Config, OpSpec, tilegym_call


def reference(a: torch.Tensor, b: torch.Tensor, trans_a: bool = False, trans_b: bool = False) -> torch.Tensor:
    """op(a) @ op(b) in f32 (fp8 through f16, as TileGym's test does), in a's dtype."""
    a = a.t() if trans_a else a
    b = b.t() if trans_b else b
    return (a.to(torch.float32) @ b.to(torch.float32)).to(a.dtype)


def _build(p, device):
    # fp8 operands are rounded from f16 normals, as in TileGym's benchmark
    make = lambda rows, cols: torch.randn(rows, cols, device=device, dtype=torch.float16).to(p["dtype"])
    return {"a": make(p["M"], p["K"]), "b": make(p["K"], p["N"])}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: x["a"] @ x["b"]
    return tilegym_call("matmul", backend, x["a"], x["b"], use_tma=True, static_persistent=p["static_persistent"])


def _check(out, p, x):
    want = reference(x["a"], x["b"])
    if p["dtype"] in (torch.float8_e4m3fn, torch.float8_e5m2):  # one fp8 rounding of the result apart
        torch.testing.assert_close(out.float(), want.float(), rtol=0.25, atol=0.5)
    else:
        torch.testing.assert_close(out.float(), want.float(), rtol=1e-2, atol=1e-2 * x["a"].shape[1] ** 0.5)


SPEC = OpSpec(
    name="matmul",
    tilegym_op="matmul",
    family="gemm",
    source="tests/benchmark/bench_matrix_multiplication.py and bench_persistent_matmul.py: M = N = K = 2^10 .. "
    "2^14, f16 and f8e5m2, use_tma, static_persistent False / True; a, b = randn; flops = 2 M N K",
    metric="TFLOP/s",
    configs=[
        Config({"M": s, "N": s, "K": s, "dtype": d, "static_persistent": persistent},
               quick=(s == 4096 and d == torch.float16))
        for persistent in (False, True)
        for d in (torch.float16, torch.float8_e5m2)
        for s in (1024, 2048, 4096, 8192, 16384)
    ],
    tiny={"M": 64, "N": 64, "K": 64, "dtype": torch.float16, "static_persistent": False},
    build=_build,
    call=_call,
    check=_check,
    amount=lambda p, x: 2 * p["M"] * p["N"] * p["K"],
    variant_params=("static_persistent",),
    backends=("cutile-cpp", "cutile", "tilecpp", "pytorch"),
)
