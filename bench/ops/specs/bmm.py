"""bmm: c[q] = op(a[q]) @ op(b[q]), TileGym's two kernels (one tile per block on a 3-D grid, static
persistent: TileGym's default and the path its benchmark runs)."""

import itertools

import torch

from configs import Config, OpSpec, tilegym_call


def reference(a: torch.Tensor, b: torch.Tensor, transpose_a: bool = False, transpose_b: bool = False) -> torch.Tensor:
    """op(a) @ op(b) batch by batch in f32, in a's dtype; a transposed operand is given as (Q, K, M) or
    (Q, N, K), as TileGym's test and benchmark give it."""
    a = a.transpose(1, 2) if transpose_a else a
    b = b.transpose(1, 2) if transpose_b else b
    return torch.bmm(a.to(torch.float32), b.to(torch.float32)).to(a.dtype)


def _build(p, device):
    # TileGym's bench_bmm: torch.rand, transposed operands stored (Q, K, M) and (Q, N, K)
    q, m, n, k = p["Q"], p["M"], p["N"], p["K"]
    a_shape = (q, k, m) if p["transpose_a"] else (q, m, k)
    b_shape = (q, n, k) if p["transpose_b"] else (q, k, n)
    return {"a": torch.rand(a_shape, device=device, dtype=p["dtype"]),
            "b": torch.rand(b_shape, device=device, dtype=p["dtype"])}


def _call(backend, p, x):
    if backend == "pytorch":
        a = x["a"].transpose(1, 2) if p["transpose_a"] else x["a"]
        b = x["b"].transpose(1, 2) if p["transpose_b"] else x["b"]
        return lambda: torch.bmm(a, b)
    return tilegym_call("bmm", backend, x["a"], x["b"], transpose_a=p["transpose_a"], transpose_b=p["transpose_b"])


def _check(out, p, x):
    # bench_bmm's sanity check: rtol = atol = 1e-2 against torch.bmm
    want = reference(x["a"], x["b"], p["transpose_a"], p["transpose_b"])
    torch.testing.assert_close(out, want, rtol=1e-2, atol=1e-2)


SPEC = OpSpec(
    name="bmm",
    tilegym_op="bmm",
    family="gemm",
    source="tests/benchmark/bench_bmm.py: batch 2 and 8, M = N = K = 2^10 .. 2^12, every (transpose_a, "
    "transpose_b), f16, static_persistent left at its default (True); a, b = torch.rand; flops = 2 Q M N K",
    metric="TFLOP/s",
    configs=[
        Config({"Q": q, "M": s, "N": s, "K": s, "transpose_a": ta, "transpose_b": tb, "dtype": torch.float16},
               quick=(q == 8 and s == 2048 and not ta and not tb))
        for q in (2, 8)
        for ta, tb in itertools.product((False, True), repeat=2)
        for s in (1024, 2048, 4096)
    ],
    tiny={"Q": 2, "M": 64, "N": 64, "K": 64, "transpose_a": False, "transpose_b": False, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=_check,
    amount=lambda p, x: 2 * p["Q"] * p["M"] * p["N"] * p["K"],
    # TileGym has no Triton bmm, and no TILEGYM_DISABLE_AUTOTUNE branch in it (untuned would be tuned)
    backends=("cutile-cpp", "cutile", "tilecpp", "pytorch"),
)
