"""What TileGym's autotuner chooses for its cutile matmul on this GPU, and what every candidate measured;
with --ours, every tile candidate of our matmul (its `config`) at the same shapes.

Runs tilegym.ops.matmul (backend "cutile") at TileGym's benchmark and test shapes, both kernels, with its
exhaustive search recorded: per shape, every candidate's mean time and the one it picked. With --ours it
times cutile_cpp.matmul at each `config` instead (triton's do_bench: device time, median). Our matmul
launcher takes its tile choice per shape class from these records (kernels/gemm/matmul.cpp).

    python3 bench/ops/matmul_autotune.py --out autotune.json [--timeout-s 400] [--ours] [--persistent-only]
"""

from __future__ import annotations

import argparse
import json
import time

import torch


def shapes():
    """(dtype, M, N, K, static_persistent): bench_matrix_multiplication's and bench_persistent_matmul's
    square sizes (f16, f8e5m2), then test_matmul's (bf16)."""
    for persistent in (False, True):
        for dtype in (torch.float16, torch.float8_e5m2):
            for e in range(10, 15):
                yield dtype, 2**e, 2**e, 2**e, persistent
        for m, n, k in ((1024, 1024, 1024), (8192, 8192, 8192), (8, 8, 8), (3072, 6144, 2720)):
            yield torch.bfloat16, m, n, k, persistent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout-s", type=float, default=400)
    parser.add_argument("--ours", action="store_true", help="time our matmul's candidates instead")
    parser.add_argument("--persistent-only", action="store_true")
    parser.add_argument("--configs", help="with --ours: these configs only, e.g. -1,4,7")
    parser.add_argument("--max-size", type=int, default=16384, help="skip shapes with a dim above this")
    args = parser.parse_args()
    if args.ours:
        return time_ours(args)

    import tilegym
    from tilegym.ops.cutile import matmul as module

    searches = []
    original = module.exhaustive_search

    def recorded(configs, *rest, **keywords):
        result = original(configs, *rest, **keywords)
        searches.append(
            {
                "best": vars(result.best.config),
                "candidates": [{"config": vars(m.config), "mean_us": m.mean_us} for m in result.successes],
                "failures": [{"config": vars(c), "error": f"{e.__name__}: {msg.splitlines()[0] if msg else ''}"}
                             for c, e, msg in result.failures],
            }
        )
        return result

    module.exhaustive_search = recorded
    start = time.monotonic()
    records = []
    for dtype, m, n, k, persistent in shapes():
        if time.monotonic() - start > args.timeout_s:
            break
        a = torch.randn(m, k, device="cuda", dtype=torch.float16).to(dtype)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16).to(dtype)
        before = len(searches)
        try:
            tilegym.ops.matmul(a, b, static_persistent=persistent, backend="cutile")
            torch.cuda.synchronize()
        except Exception as e:  # a shape TileGym cannot run is recorded, not fatal
            records.append({"dtype": str(dtype), "M": m, "N": n, "K": k, "static_persistent": persistent,
                            "error": f"{type(e).__name__}: {e}"[:300]})
            continue
        record = {"dtype": str(dtype).split(".")[-1], "M": m, "N": n, "K": k, "static_persistent": persistent}
        record.update(searches[before] if len(searches) > before else {"note": "cached"})
        records.append(record)
        print(record["dtype"], m, n, k, "persistent" if persistent else "plain", "->", record.get("best"), flush=True)
        with open(args.out, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "records": records}, f, indent=1)
    with open(args.out, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(), "records": records}, f, indent=1)


def time_ours(args) -> None:
    import triton.testing

    import cutile_cpp

    start = time.monotonic()
    candidates = {False: 4, True: 8}  # kMatmulTiles, kPersistentMatmulTiles (kernels/gemm/matmul.hpp)
    records = []
    for dtype, m, n, k, persistent in shapes():
        if (args.persistent_only and not persistent) or max(m, n, k) > args.max_size:
            continue
        if time.monotonic() - start > args.timeout_s:
            break
        a = torch.randn(m, k, device="cuda", dtype=torch.float16).to(dtype)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16).to(dtype)
        times = {}
        configs = [int(c) for c in args.configs.split(",")] if args.configs else [-1, *range(candidates[persistent])]
        for config in configs:
            try:
                call = lambda: cutile_cpp.matmul(a, b, static_persistent=persistent, config=config)  # noqa: E731
                call()
                times[config] = triton.testing.do_bench(call, warmup=5, rep=40, return_mode="median") * 1e3
            except Exception as e:  # a candidate that does not compile or run is recorded
                times[config] = f"{type(e).__name__}: {e}"[:200]
        record = {"dtype": str(dtype).split(".")[-1], "M": m, "N": n, "K": k, "static_persistent": persistent,
                  "median_us_by_config": times}
        records.append(record)
        print(record, flush=True)
        with open(args.out, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
