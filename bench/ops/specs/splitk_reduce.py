"""splitk_reduce: the merge of split-KV attention decode partials, weighted by 2^(lse - max lse)."""

import torch

from configs import Config, OpSpec, close, numel_bytes, tilegym_call

# test_perf's S_kv by number of splits (TileGym's kernel never reads it; passed as TileGym passes it)
S_KV = {2: 1024, 8: 1024, 16: 8192, 64: 8192}


def reference(attn_splitk_out: torch.Tensor, lse_splitk_out: torch.Tensor) -> torch.Tensor:
    """attn_out (B, H, D) of the partials (B, H, K, D) and their log2-domain log-sum-exps (B, H, K): the
    partials averaged with weights 2^(lse - max lse), in f32 (float64 for float64 inputs), returned in the
    partials' dtype. TileGym's reference also divides the weights by ln 2, which cancels in the ratio."""
    compute = torch.float64 if attn_splitk_out.dtype == torch.float64 else torch.float32
    o, lse = attn_splitk_out.to(compute), lse_splitk_out.to(compute)
    weights = torch.exp2(lse - lse.amax(dim=-1, keepdim=True))  # (B, H, K)
    out = (o * weights.unsqueeze(-1)).sum(dim=2) / weights.sum(dim=-1, keepdim=True)
    return out.to(attn_splitk_out.dtype)


def _build(p, device):
    # TileGym's test_perf: partials randn, lse randn * 2 + 5 (f32), attn_out allocated by the caller
    b, h, k, d, dtype = p["B"], p["H"], p["K"], p["D"], p["dtype"]
    return {
        "attn_splitk_out": torch.randn(b, h, k, d, device=device, dtype=dtype),
        "lse_splitk_out": torch.randn(b, h, k, device=device, dtype=torch.float32) * 2.0 + 5.0,
        "attn_out": torch.empty(b, h, d, device=device, dtype=dtype),
    }


def _call(backend, p, x):
    if backend == "pytorch":
        return lambda: reference(x["attn_splitk_out"], x["lse_splitk_out"])
    return tilegym_call("splitk_reduce", backend, x["attn_splitk_out"], x["lse_splitk_out"], x["attn_out"],
                        S_KV.get(p["K"], p["K"] * 128))


SPEC = OpSpec(
    name="splitk_reduce",
    tilegym_op="splitk_reduce",
    family="attention",
    source="TileGym has no tests/benchmark/bench_splitk_reduce.py: tests/ops/test_splitk_reduce.py's test_perf "
    "(B 1, H 16 and 32, D 512, K 2, 8, 16, 64, f16; S_kv 1024, 1024, 8192, 8192), with bf16 added from its "
    "test_op; partials = randn, lse = randn * 2 + 5 (f32); tol (1e-2, 1e-2); bytes = partials + lse + attn_out "
    "(test_perf reports times only)",
    metric="GB/s",
    configs=[
        Config({"B": 1, "H": h, "K": k, "D": 512, "dtype": d}, quick=(d == torch.float16 and h == 32 and k in (8, 16)))
        for d in (torch.float16, torch.bfloat16)
        for h in (16, 32)
        for k in (2, 8, 16, 64)
    ],
    tiny={"B": 1, "H": 2, "K": 4, "D": 64, "dtype": torch.float16},
    build=_build,
    call=_call,
    check=lambda out, p, x: close(1e-2, 1e-2)(out, reference(x["attn_splitk_out"], x["lse_splitk_out"])),
    amount=lambda p, x: numel_bytes(x["attn_splitk_out"], x["lse_splitk_out"], x["attn_out"]),
    # TileGym has no Triton splitk_reduce and no autotuning of it (untuned would be the same kernel as cutile)
    backends=("cutile-cpp", "cutile", "tilecpp", "pytorch"),
)
