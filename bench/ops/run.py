#!/usr/bin/env python3
"""Benchmarks the kernel library's TileGym ops against cuTile Python, Triton and PyTorch, in one process.

    python3 bench/ops/run.py [--op OP ...] [--family FAMILY ...] [--quick | --tiny] --out FILE.json

Per op and configuration (bench/ops/configs.py): every backend's output is checked against torch with
TileGym's tolerances (a failing backend is recorded, not timed; an op not registered for cutile-cpp is
"not ported" and its baselines are still measured), then timed (device time, CUDA events with an L2 flush;
see bench/ops/timing.py and docs/benchmarks.md). The JSON holds the environment, the method, the copy and
bf16-matmul ceilings, per-config numbers, ratios and geomeans, the host launch overhead and, unless
--no-first-call, first-call times from fresh processes with empty and then warm disk caches. The summary
table is printed last. Needs the cutile_cpp package importable (PYTHONPATH=python) with its library built
(CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=build), tilegym and cuda-tile; scripts/gpu_bench.sh
sets all of that up on the GPU machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parents[1] / "python"))  # after PYTHONPATH: a given cutile_cpp wins

import torch  # noqa: E402

import configs as C  # noqa: E402
import harness  # noqa: E402
import summary  # noqa: E402


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--op", nargs="+", action="extend", help=f"ops to run (default: all): {', '.join(C.OPS)}")
    parser.add_argument("--family", nargs="+", action="extend",
                        help=f"families to run: {', '.join(C.FAMILIES + sorted(C.FAMILY_GROUPS))}")
    subset = parser.add_mutually_exclusive_group()
    subset.add_argument("--quick", action="store_true", help="only the configurations marked quick (2-4 per op)")
    subset.add_argument("--tiny", action="store_true", help="only each op's tiny configuration (smoke test)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON report")
    parser.add_argument("--device", choices=("cuda", "cpu"), help="default: cuda when a GPU is present")
    parser.add_argument("--backends", nargs="+", default=list(C.BACKENDS), choices=C.BACKENDS)
    parser.add_argument("--reps", type=int, help="timed repetitions per call (default 100, 30 with --quick)")
    parser.add_argument("--warmup-ms", type=float, default=25.0)
    parser.add_argument("--budget-s", type=float,
                        help="start no configuration after this many seconds (the rest is recorded as skipped); "
                        "quick configurations run first")
    parser.add_argument("--no-ceilings", action="store_true")
    parser.add_argument("--no-launch", action="store_true", help="skip the host launch overhead loop")
    parser.add_argument("--no-first-call", action="store_true", help="skip the cold/warm first-call processes")
    parser.add_argument("--first-call-timeout-s", type=float, default=180.0)
    parser.add_argument("--first-call-probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--resume", action="store_true",
                        help="continue the run whose checkpoint is in --out (its process died): keep its entries, record "
                        "the configuration that was running as having killed it, measure the rest")
    parser.add_argument("--finalize", action="store_true",
                        help="complete the report in --out that a killed run left (its checkpoint): ratios, geomeans, "
                        "table")
    return parser.parse_args(argv)


def finalize_checkpoint(path: Path) -> int:
    report = json.loads(path.read_text())
    if "ops" not in report:
        print(f"run.py: {path} holds no measurements", file=sys.stderr)
        return 1
    if report.get("partial"):
        summary.finalize(report, report["ops"])
        report["completed_from_checkpoint"] = True
        report["table"] = summary.table(report)
        path.write_text(json.dumps(report, indent=1) + "\n")
    print(report["table"])
    return 0


def first_call_processes(args, device) -> dict:
    """Runs this script twice with --first-call-probe, both pointing every disk cache at one new empty
    directory: the first process finds the caches empty (cold: trace/bytecode, tileiras, load), the
    second finds them filled (warm disk cache, a new process's in-memory caches empty)."""
    out = {"what": "wall time of each backend's first call of each op's tiny configuration, synchronised, in a fresh "
           "process after imports and CUDA context creation; second_ms is the call after it"}
    root = Path(tempfile.mkdtemp(prefix="cutile-bench-cache-"))
    env = dict(os.environ, CUTILE_CACHE_DIR=str(root / "cutile-cpp"), CUDA_TILE_CACHE_DIR=str(root / "cutile-python"),
               TRITON_CACHE_DIR=str(root / "triton"), TILECPP_CACHE_DIR=str(root / "tilecpp"))
    command = [sys.executable, str(Path(__file__).resolve()), "--first-call-probe", "--device", device.type,
               "--out", "-", "--backends", *args.backends]
    if args.op:
        command += ["--op", *args.op]
    if args.family:
        command += ["--family", *args.family]
    for phase in ("cold", "warm"):
        start = time.perf_counter()
        try:
            result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=args.first_call_timeout_s)
            if result.returncode == 0:
                out[phase] = json.loads(result.stdout.strip().splitlines()[-1])  # imports may print before it
            else:
                out[phase] = {"error": f"exit {result.returncode}: {result.stderr.strip()[-800:]}"}
        except subprocess.TimeoutExpired:
            out[phase] = {"error": f"timed out after {args.first_call_timeout_s} s"}
        except (ValueError, IndexError) as error:
            out[phase] = {"error": f"unreadable output: {error}"}
        out[f"{phase}_process_s"] = time.perf_counter() - start
    return out


def main(argv=None) -> int:
    args = parse(argv)
    if args.finalize:
        return finalize_checkpoint(args.out)
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    try:
        specs = C.select(args.op, args.family)
    except ValueError as error:
        print(f"run.py: {error}", file=sys.stderr)
        return 2
    if args.first_call_probe:
        print(json.dumps(harness.first_calls(specs, device, tuple(args.backends))))
        return 0
    subset = "tiny" if args.tiny else "quick" if args.quick else "full"
    reps = args.reps or (30 if subset != "full" else 100)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    resume = None
    if args.resume and args.out.exists():
        resume = json.loads(args.out.read_text())
        if not resume.get("partial"):
            print(f"run.py: {args.out} is no checkpoint of a run that died; nothing to resume", file=sys.stderr)
            return 2

    def checkpoint(partial):  # a run killed part-way still leaves what it measured
        args.out.write_text(json.dumps(partial) + "\n")

    report = harness.run(specs, device, subset=subset, reps=reps, warmup_ms=args.warmup_ms, budget_s=args.budget_s,
                         backends=tuple(args.backends), with_ceilings=not args.no_ceilings,
                         with_launch=not args.no_launch, progress=checkpoint, resume=resume)
    if args.no_first_call or device.type != "cuda":
        report["first_call"] = {"skipped": "--no-first-call" if args.no_first_call else "needs a CUDA GPU"}
    else:
        harness.log("first calls: cold and warm disk caches, one fresh process each")
        report["first_call"] = first_call_processes(args, device)
    report["table"] = summary.table(report)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(report["table"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
