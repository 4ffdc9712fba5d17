"""swiglu: silu(a) · b."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, public_op


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.silu(a) * b


def _build(p, device):
    shape = (p["batch"], p["M"], p["N"])
    return {name: torch.randn(shape, device=device, dtype=p["dtype"]) for name in ("a", "b")}


def _call(backend, p, x):
    a, b = x["a"], x["b"]
    if backend == "pytorch":
        return lambda: reference(a, b)
    fn = public_op("get_swiglu")(backend=backend)
    return lambda: fn(a, b)


def _check(out, p, x):
    tol = 1e-5 if p["dtype"] == torch.float32 else 1e-2
    close(tol, tol)(out, reference(x["a"], x["b"]))


SPEC = OpSpec(
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
    build=_build,
    call=_call,
    check=_check,
    amount=lambda p, x: 3 * numel_bytes(x["a"]),
)
