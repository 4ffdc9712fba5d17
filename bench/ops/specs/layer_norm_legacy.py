"""layer_norm_legacy: layer normalisation over the last axis, one row per block."""

import torch
import torch.nn.functional as F

from configs import Config, OpSpec, close, numel_bytes, tilegym_call

COLUMNS = (256, 1024, 2048, 4096, 8192, 16384)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)


def build(p, device):
    n = p["N"]
    return {
        "x": torch.randn(p["M"], n, device=device, dtype=p["dtype"]),
        "w": torch.randn(n, device=device, dtype=p["dtype"]),
        "b": torch.randn(n, device=device, dtype=p["dtype"]),
        "eps": 1e-6,
    }


def caller(op):
    def call(backend, p, x):
        if backend == "pytorch":
            return lambda: reference(x["x"], x["w"], x["b"], x["eps"])
        return tilegym_call(op, backend, input=x["x"], normalized_shape=(p["N"],), weight=x["w"], bias=x["b"],
                            eps=x["eps"])

    return call


def check(out, p, x):
    close(1e-2, 1e-2)(out, reference(x["x"], x["w"], x["b"], x["eps"]))


SPEC = OpSpec(
    name="layer_norm_legacy",
    tilegym_op="layer_norm_legacy",
    family="normalization",
    source="tests/benchmark/bench_layernorm.py (bench_legacy_layer_norm): M 4096, N 256..16384, bf16, eps 1e-6; "
    "x, w, b = randn; tol (1e-2, 1e-2) vs F.layer_norm; bytes = 2x + w + b",
    metric="GB/s",
    configs=[Config({"M": 4096, "N": n, "dtype": torch.bfloat16}, quick=n in (1024, 16384)) for n in COLUMNS],
    tiny={"M": 4, "N": 64, "dtype": torch.bfloat16},
    build=build,
    call=caller("layer_norm_legacy"),
    check=check,
    amount=lambda p, x: numel_bytes(x["x"], x["x"], x["w"], x["b"]),
    triton=True,
)
