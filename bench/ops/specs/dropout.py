"""dropout: training-mode dropout with TileGym's hash mask."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, numel_bytes, tilegym_call


def reference(x: torch.Tensor, p: float, kept: torch.Tensor) -> torch.Tensor:
    """Dropout of x with the mask `kept` (the elements a kernel kept): x / (1 - p) there, else 0."""
    return torch.where(kept, x / (1.0 - p), torch.zeros_like(x))


def _build(p, device):
    return {"x": torch.rand(p["M"], device=device, dtype=p["dtype"]), "seed": 1234}


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: F.dropout(x["x"], p=p["p"], training=True, inplace=False)
    return tilegym_call("dropout", backend, x["x"], x["seed"], p["p"], True, False)


def _check(out, p, x):
    """TileGym's check (the zero fraction within 0.04 of p), and every kept element equals x / (1 - p)."""
    if isinstance(out, (tuple, list)):
        out = out[0]
    assert out.shape == x["x"].shape and out.dtype == x["x"].dtype, f"output {out.shape} {out.dtype}"
    zero_ratio = 1.0 - torch.count_nonzero(out).item() / out.numel()
    assert abs(zero_ratio - p["p"]) < 0.04, f"zero fraction {zero_ratio:.4f} for p = {p['p']}"
    torch.testing.assert_close(out, reference(x["x"], p["p"], out != 0), rtol=1e-2, atol=1e-2)


SPEC = OpSpec(
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
    build=_build,
    call=_call,
    check=_check,
    amount=lambda p, x: 2 * numel_bytes(x["x"]),
    triton=True,
)
