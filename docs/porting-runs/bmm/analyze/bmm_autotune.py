"""The analyze stage's GPU work for bmm: what TileGym's autotuner picks for its cuTile Python bmm on this GPU,
what every candidate measured, and the baseline's time at TileGym's benchmark configurations.

Per shape (bench_bmm's: batch 2 and 8, M = N = K 1024/2048/4096, every (transpose_a, transpose_b), f16;
then test_bmm's test_perf 8192 and a few test_op shapes while time is left):
- the exhaustive search TileGym's launcher runs (tilegym/ops/cutile/bmm.py, _persistent_bmm_autotune_base):
  its pick, every candidate's mean time and the failures;
- device time (triton.testing.do_bench, median; warm-up and L2 flush are do_bench's) of tilegym.ops.bmm
  with backend "cutile" as bench_bmm calls it (static_persistent=True, the default, autotuned), of the
  non-persistent path (static_persistent=False: 128x128x32, untuned; TileGym allows it without transposes
  only), and of torch.bmm; and the largest error against torch.bmm.
TileGym has no Triton bmm (tilegym/ops/triton has no bmm.py), so there is no Triton timing.

    DISABLE_FALLBACK=1 python3 bmm_autotune.py --out autotune.json [--budget-s 420]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

import torch
import triton
import triton.testing


def shapes():
    """(batch, M, N, K, transpose_a, transpose_b, where): bench_bmm's configurations first."""
    for size in (1024, 2048, 4096):
        for ta, tb in itertools.product([False, True], repeat=2):
            for q in (2, 8):
                yield q, size, size, size, ta, tb, "bench_bmm"
    for ta, tb in itertools.product([False, True], repeat=2):
        for q in (2, 8):
            yield q, 8192, 8192, 8192, ta, tb, "test_bmm.test_perf"
    for m, n, k in ((1024, 512, 1024), (128, 256, 512), (1024, 256, 511)):
        for ta, tb in itertools.product([False, True], repeat=2):
            yield 4, m, n, k, ta, tb, "test_bmm.test_op"


def reference(a, b, ta, tb):
    return torch.bmm(a.transpose(1, 2) if ta else a, b.transpose(1, 2) if tb else b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--budget-s", type=float, default=420)
    args = parser.parse_args()

    import cuda.tile
    import tilegym
    from tilegym.ops.cutile import bmm as module

    searches = []
    original = module.exhaustive_search

    def recorded(configs, *rest, **keywords):
        start = time.monotonic()
        result = original(configs, *rest, **keywords)
        searches.append({
            "best": vars(result.best.config),
            "best_mean_us": result.best.mean_us,
            "search_s": round(time.monotonic() - start, 2),
            "candidates": sorted(({"config": vars(m.config), "mean_us": round(m.mean_us, 2)} for m in result.successes),
                                 key=lambda r: r["mean_us"]),
            "failures": [{"config": vars(c), "error": f"{e.__name__}: {msg.splitlines()[0] if msg else ''}"}
                         for c, e, msg in result.failures],
        })
        return result

    module.exhaustive_search = recorded
    props = torch.cuda.get_device_properties(0)
    report = {"gpu": torch.cuda.get_device_name(), "capability": list(torch.cuda.get_device_capability()),
              "sms": props.multi_processor_count, "torch": torch.__version__, "triton": triton.__version__,
              "cuda_tile": getattr(cuda.tile, "__version__", "?"), "candidates": [vars(c) for c in module._bmm_autotune_configs()],
              "records": []}
    start = time.monotonic()

    def save():
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)

    def bench(fn):
        return triton.testing.do_bench(fn, return_mode="median") * 1e3  # µs

    for q, m, n, k, ta, tb, where in shapes():
        if time.monotonic() - start > args.budget_s:
            report.setdefault("not_reached", []).append([q, m, n, k, ta, tb, where])
            continue
        record = {"where": where, "Q": q, "M": m, "N": n, "K": k, "transpose_a": ta, "transpose_b": tb, "dtype": "f16"}
        try:
            a = torch.rand((q, k, m) if ta else (q, m, k), device="cuda", dtype=torch.float16)
            b = torch.rand((q, n, k) if tb else (q, k, n), device="cuda", dtype=torch.float16)
            fn = lambda: tilegym.ops.bmm(a, b, transpose_a=ta, transpose_b=tb, backend="cutile")  # noqa: E731
            before = len(searches)
            t0 = time.monotonic()
            out = fn()
            torch.cuda.synchronize()
            record["first_call_s"] = round(time.monotonic() - t0, 2)
            ref = reference(a, b, ta, tb)
            record["max_abs_err"] = (out.float() - ref.float()).abs().max().item()
            record.update(searches[before] if len(searches) > before else {"note": "tune cache hit"})
            flops = 2 * q * m * n * k
            record["cutile_us"] = bench(fn)
            record["torch_us"] = bench(lambda: reference(a, b, ta, tb))
            if not (ta or tb):
                plain = lambda: tilegym.ops.bmm(a, b, static_persistent=False, backend="cutile")  # noqa: E731
                plain()
                record["cutile_plain_us"] = bench(plain)
            record["cutile_tflops"] = round(flops / record["cutile_us"] * 1e-6, 1)
            record["torch_tflops"] = round(flops / record["torch_us"] * 1e-6, 1)
            del a, b, out, ref
            torch.cuda.empty_cache()
        except Exception as e:  # recorded, not fatal
            record["error"] = f"{type(e).__name__}: {e}"[:400]
        report["records"].append(record)
        print(json.dumps({k: v for k, v in record.items() if k not in ("candidates", "failures")}), flush=True)
        save()
    report["elapsed_s"] = round(time.monotonic() - start, 1)
    save()

    # The short table.
    print("\nwhere                Q     M     N     K  ta tb | pick (TM,TN,TK,occ,ctas)  | cutile_us  plain_us  torch_us")
    for r in report["records"]:
        best = r.get("best")
        pick = (f"{best['TILE_M']},{best['TILE_N']},{best['TILE_K']},{best['occupancy']},{best['num_ctas']}"
                if best else r.get("note", r.get("error", "")[:24]))
        print(f"{r['where']:<19} {r['Q']:>2} {r['M']:>5} {r['N']:>5} {r['K']:>5}  {int(r['transpose_a'])}  "
              f"{int(r['transpose_b'])} | {pick:<25} | {r.get('cutile_us', float('nan')):9.1f} "
              f"{r.get('cutile_plain_us', float('nan')):9.1f} {r.get('torch_us', float('nan')):9.1f}")


if __name__ == "__main__":
    main()
