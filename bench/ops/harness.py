"""The measuring part of bench/ops/run.py: backends, correctness gate, timing, ceilings, summaries.

Method (the same for every backend): device time of one call, taken with CUDA events recorded on the
current stream right before and after the call. Before each call a 256 MiB buffer is written (evicting
the 60 MiB L2 of an H200) and a spin kernel (torch.cuda._sleep) keeps the GPU busy for longer than the
call's host-side cost, so the events bracket device work only, not Python or launch latency. Warm-up:
calls (each followed by a synchronisation) until 3 calls and 25 ms have passed, which also covers
TileGym's first-call autotuning. Reported: median, p10, p90 and minimum over the repetitions. On a
machine without a GPU (the test tier) the CPU wall time of each call is reported instead; those numbers
exercise the harness and are no performance data.
"""

from __future__ import annotations

import importlib.metadata
import itertools
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import torch

import configs as C

REPO = Path(__file__).resolve().parents[2]
SCHEMA = "cutile-cpp-ops-bench/1"
FLUSH_BYTES = 256 << 20
BASELINES = ("cutile", C.UNTUNED, "triton", "pytorch")
METHOD_GPU = (
    "CUDA events around each call on the current stream; before each call a 256 MiB buffer is written "
    "(L2 flush) and torch.cuda._sleep covers the call's host cost, so the events time device work only; "
    "warm-up of >= 3 calls and >= 25 ms (covers first-call autotuning); median (p10, p90) over the repetitions"
)
METHOD_CPU = "CPU wall time per call (time.perf_counter); no GPU: these numbers test the harness, not speed"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def first_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".strip()
    return text.splitlines()[0][:400] if text else type(error).__name__


# --- timing --------------------------------------------------------------------------------------------------


def stats(times_ms: list[float]) -> dict:
    times = sorted(times_ms)

    def pct(q):
        return times[min(len(times) - 1, max(0, round(q * (len(times) - 1))))]

    return {"median_ms": statistics.median(times), "p10_ms": pct(0.1), "p90_ms": pct(0.9), "min_ms": times[0],
            "reps": len(times)}


class CpuTimer:
    method = METHOD_CPU

    def measure(self, fn, reps: int, warmup_ms: float) -> dict:
        fn()
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e3)
        return stats(times)

    def synchronize(self) -> None:
        pass


class GpuTimer:
    method = METHOD_GPU

    def __init__(self, device: torch.device):
        self.device = device
        self.flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.float32, device=device)
        # Spin-kernel rate, to turn a host time into _sleep cycles.
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(1000)
        start.record()
        torch.cuda._sleep(10_000_000)
        end.record()
        torch.cuda.synchronize()
        self.cycles_per_us = 10_000_000 / max(start.elapsed_time(end) * 1e3, 1.0)

    def synchronize(self) -> None:
        torch.cuda.synchronize(self.device)

    def host_us(self, fn, calls: int = 5) -> float:
        """Host-side cost of one call, the GPU idle: median wall time of `calls` unsynchronised calls."""
        times = []
        for _ in range(calls):
            self.synchronize()
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e6)
        self.synchronize()
        return statistics.median(times)

    def measure(self, fn, reps: int, warmup_ms: float) -> dict:
        deadline, calls = time.perf_counter() + warmup_ms / 1e3, 0
        while calls < 3 or (time.perf_counter() < deadline and calls < 200):
            fn()
            self.synchronize()
            calls += 1
        host = self.host_us(fn)
        sleep_cycles = int((1.5 * host + 20.0) * self.cycles_per_us)
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        for i in range(reps):
            self.flush.zero_()
            torch.cuda._sleep(sleep_cycles)
            starts[i].record()
            fn()
            ends[i].record()
        self.synchronize()
        result = stats([s.elapsed_time(e) for s, e in zip(starts, ends)])
        result["host_us"] = host
        return result


def ceilings(timer: GpuTimer, device: torch.device) -> dict:
    """Device-to-device copy bandwidth (bytes read + written) and the bf16 matmul rate, same method."""
    out = {}
    try:
        n = 1 << 28  # 1 GiB of float32
        src, dst = torch.rand(n, device=device), torch.empty(n, device=device)
        r = timer.measure(lambda: dst.copy_(src), reps=20, warmup_ms=10)
        moved = 2 * n * 4
        out["copy"] = {"what": "dst.copy_(src), 1 GiB float32, bytes read + written", "bytes": moved,
                       **r, "gbps": moved / (r["median_ms"] * 1e6)}
        del src, dst
    except Exception as error:
        out["copy"] = {"error": first_line(error)}
    try:
        size = 8192
        a = torch.randn(size, size, device=device, dtype=torch.bfloat16)
        b = torch.randn(size, size, device=device, dtype=torch.bfloat16)
        r = timer.measure(lambda: torch.mm(a, b), reps=20, warmup_ms=10)
        flops = 2 * size**3
        out["bf16_mm"] = {"what": "torch.mm, 8192^3 bf16, random inputs", "flops": flops, **r,
                          "tflops": flops / (r["median_ms"] * 1e9)}
        del a, b
    except Exception as error:
        out["bf16_mm"] = {"error": first_line(error)}
    torch.cuda.empty_cache()
    return out


# --- environment ---------------------------------------------------------------------------------------------


def version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def tileiras_version() -> dict:
    """The tileiras cuTile Python finds (the same one gpu_bench.sh gives our library)."""
    try:
        from cuda.tile import _compile

        path = _compile._find_compiler_bin().path
        text = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
        release = next((line.strip() for line in text.splitlines() if "release" in line), text.strip())
        return {"path": path, "version": release}
    except Exception as error:
        return {"error": first_line(error)}


def git_commit() -> str:
    if os.environ.get("BENCH_GIT_COMMIT"):
        return os.environ["BENCH_GIT_COMMIT"]
    try:
        result = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10)
        if result.returncode == 0:
            dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                                   capture_output=True, text=True, timeout=10).stdout.strip()
            return result.stdout.strip() + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown"


def environment(device: torch.device) -> dict:
    meta = {
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "git_commit": git_commit(),
        "device": device.type,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "triton": version("triton"),
        "cuda_tile": version("cuda-tile"),
        "tilegym": version("tilegym"),
        "tileiras": tileiras_version(),
        "host": platform.node(),
    }
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        meta.update(gpu=props.name, sm_count=props.multi_processor_count,
                    compute_capability=f"{props.major}.{props.minor}",
                    gpu_memory_gib=round(props.total_memory / 2**30, 1), l2_bytes=getattr(props, "L2_cache_size", None))
        try:
            meta["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                            capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, subprocess.SubprocessError, IndexError):
            meta["driver"] = None
    else:
        meta.update(gpu=None, sm_count=None, driver=None)
    return meta


# --- backends ------------------------------------------------------------------------------------------------


class Backends:
    """Imports TileGym and the cutile-cpp plugin once; says per op which backends can run and why not."""

    def __init__(self, device: torch.device, wanted: tuple = C.BACKENDS):
        self.device, self.wanted, self.errors = device, wanted, {}
        try:
            import tilegym
            import tilegym.ops  # noqa: F401  (imports the cutile and triton implementations)
            from tilegym.backend import dispatcher

            self.dispatcher, self.tilegym = dispatcher, tilegym
        except Exception as error:
            self.dispatcher, self.tilegym = None, None
            self.errors["tilegym"] = first_line(error)
        try:
            import cutile_cpp.tilegym  # noqa: F401  (registers backend "cutile-cpp")
        except Exception as error:
            self.errors["cutile-cpp"] = first_line(error)

    def status(self, spec: C.OpSpec, backend: str) -> str:
        """'ok', 'not ported', or 'unavailable: <why>'."""
        if backend == "pytorch":
            return "ok"
        if self.dispatcher is None:
            return f"unavailable: tilegym does not import ({self.errors['tilegym']})"
        if backend == "cutile-cpp" and "cutile-cpp" in self.errors:
            return f"unavailable: cutile_cpp.tilegym does not import ({self.errors['cutile-cpp']})"
        registered = self.dispatcher.has_backend_impl(spec.tilegym_op, "cutile" if backend == C.UNTUNED else backend)
        if backend == "cutile-cpp":
            return "ok" if registered else "not ported"
        if self.device.type != "cuda":
            return "unavailable: needs a CUDA GPU"
        if not registered:
            return f"unavailable: TileGym registers no {backend} implementation of {spec.tilegym_op} here"
        return "ok"

    def for_op(self, spec: C.OpSpec) -> dict:
        return {b: self.status(spec, b) for b in spec.backends_for() if b in self.wanted}


# --- one op --------------------------------------------------------------------------------------------------


def jsonable(value):
    if isinstance(value, torch.dtype):
        return C.dtype_name(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def measure_backend(spec, config, backend, inputs, timer, reps, warmup_ms) -> dict:
    """Checks one backend's output against torch, then times it; never raises."""
    try:
        fresh = C.in_place_inputs(spec, inputs)
        out = spec.invoke(backend, config.params, fresh)()
        timer.synchronize()
        spec.check(out, config.params, fresh)
        del out, fresh
    except AssertionError as error:
        return {"status": "failed", "reason": first_line(error)}
    except Exception as error:
        return {"status": "error", "reason": first_line(error)}
    try:
        return {"status": "ok", **timer.measure(spec.invoke(backend, config.params, inputs), reps, warmup_ms)}
    except Exception as error:
        return {"status": "error", "reason": "while timing: " + first_line(error)}


def run_config(spec, config, statuses, timer, device, reps, warmup_ms, shared) -> dict:
    entry = {"id": config.id, "params": {k: jsonable(v) for k, v in config.params.items()}, "quick": config.quick,
             "results": {}}
    try:
        inputs = spec.build(config.params, device)
        amount = spec.amount(config.params, inputs)
        entry["bytes" if spec.metric == "GB/s" else "flops"] = amount
    except Exception as error:
        entry["error"] = "building the inputs: " + first_line(error)
        for backend in statuses:
            entry["results"][backend] = {"status": "error", "reason": entry["error"]}
        return entry
    invariant = tuple((k, v) for k, v in config.params.items() if k not in spec.variant_params)
    for backend, status in statuses.items():
        if status != "ok":
            entry["results"][backend] = {"status": status.split(":")[0], "reason": status}
            continue
        key = (spec.name, backend, invariant) if backend in ("pytorch", "triton") and spec.variant_params else None
        if key is not None and key in shared:
            entry["results"][backend] = dict(shared[key][1], shared_with=shared[key][0])
            continue
        result = measure_backend(spec, config, backend, inputs, timer, reps, warmup_ms)
        if result["status"] == "ok":
            scale = 1e6 if spec.metric == "GB/s" else 1e9
            result["gbps" if spec.metric == "GB/s" else "tflops"] = amount / (result["median_ms"] * scale)
        entry["results"][backend] = result
        if key is not None:
            shared[key] = (config.id, result)
    del inputs
    return entry


def host_launch_overhead(spec, statuses, device, calls=100, batches=5) -> dict:
    """Wall time per call of the op's tiny configuration, calls in a loop with no synchronisation between
    them (the stream is drained between batches, outside the timing); median over the batches."""
    out = {"params": {k: jsonable(v) for k, v in spec.tiny.items()}}
    if device.type != "cuda":
        out["skipped"] = "needs a CUDA GPU (host cost of launching device work)"
        return out
    try:
        inputs = spec.build(spec.tiny, device)
    except Exception as error:
        out["error"] = "building the inputs: " + first_line(error)
        return out
    for backend, status in statuses.items():
        if status != "ok":
            out[backend] = status
            continue
        try:
            fn = spec.invoke(backend, spec.tiny, inputs)
            for _ in range(10):
                fn()
            per_call = []
            for _ in range(batches):
                torch.cuda.synchronize(device)
                start = time.perf_counter()
                for _ in range(calls):
                    fn()
                per_call.append((time.perf_counter() - start) / calls * 1e6)
            torch.cuda.synchronize(device)
            out[backend] = {"us_per_call_median": statistics.median(per_call), "us_per_call_min": min(per_call)}
        except Exception as error:
            out[backend] = {"error": first_line(error)}
    return out


def tilegym_autotune_choices(known: dict) -> dict:
    """What TileGym's autotuning picked so far: every module-level tune cache of tilegym.ops.cutile (dicts
    whose name has 'tune' and 'cache'), keys and values as text, added to `known`."""
    out = dict(known)
    for name, module in list(sys.modules.items()):
        if not name.startswith("tilegym.ops.cutile."):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, dict) and "tune" in attr.lower() and "cache" in attr.lower() and value:
                out.setdefault(f"{name}.{attr}", {}).update({str(k)[:300]: repr(v)[:300] for k, v in value.items()})
    return out


# --- summaries -----------------------------------------------------------------------------------------------


def ratios(entry: dict) -> dict:
    """Speed-up of cutile-cpp over each baseline: baseline median / cutile-cpp median (> 1: ours is faster)."""
    ours = entry["results"].get("cutile-cpp", {})
    out = {}
    for baseline in BASELINES:
        theirs = entry["results"].get(baseline, {})
        if ours.get("status") == "ok" and theirs.get("status") == "ok":
            out[baseline] = theirs["median_ms"] / ours["median_ms"]
    return out


def summarize_op(op: dict, copy_gbps: float | None) -> None:
    """Fills the op's per-config ratios, their geomeans and the largest config's share of the copy ceiling."""
    for entry in op["configs"]:
        entry["ratio"] = ratios(entry)
    op["geomean"] = {}
    for baseline in BASELINES:
        values = [e["ratio"][baseline] for e in op["configs"] if baseline in e.get("ratio", {})]
        if values:
            op["geomean"][baseline] = {"value": C.geomean(values), "n": len(values)}
    measured = [e for e in op["configs"] if "bytes" in e]
    if op["metric"] == "GB/s" and measured:
        largest = max(measured, key=lambda e: e["bytes"])
        op["largest_config"] = {"id": largest["id"], "bytes": largest["bytes"], "gbps": {}, "fraction_of_copy": {}}
        for backend, result in largest["results"].items():
            if result.get("status") == "ok":
                op["largest_config"]["gbps"][backend] = result["gbps"]
                if copy_gbps:
                    op["largest_config"]["fraction_of_copy"][backend] = result["gbps"] / copy_gbps


def summarize_families(ops: dict) -> dict:
    """Per family (and per --family group): geomean of the ops' geomeans, so that each op weighs the same."""
    families = {}
    groups = {f: (f,) for f in C.FAMILIES}
    groups.update(C.FAMILY_GROUPS)
    for name, members in groups.items():
        names = [n for n, op in ops.items() if op["family"] in members]
        if not names:
            continue
        summary = {"ops": names, "geomean": {}}
        for baseline in BASELINES:
            values = [ops[n]["geomean"][baseline]["value"] for n in names if baseline in ops[n]["geomean"]]
            if values:
                summary["geomean"][baseline] = {"value": C.geomean(values), "ops": len(values)}
        families[name] = summary
    return families


def table(report: dict) -> str:
    """The short text table printed last."""
    head = (f"{'op':22} {'cutile-cpp':11} {'ok/cfg':7} {'vs cutile':>9} {'untuned':>9} {'vs triton':>9} "
            f"{'vs torch':>9} {'%copy ours':>10} {'%copy cuTile':>12}")
    lines = [head, "-" * len(head)]

    def fmt(value, spec="{:.3f}"):
        return spec.format(value) if value is not None else "-"

    for name, op in report["ops"].items():
        ours = op["backends"].get("cutile-cpp", "?")
        ok = sum(1 for e in op["configs"] if e["results"].get("cutile-cpp", {}).get("status") == "ok")
        geo = {b: op["geomean"].get(b, {}).get("value") for b in BASELINES}
        frac = op.get("largest_config", {}).get("fraction_of_copy", {})
        lines.append(f"{name:22} {ours[:11]:11} {ok:>3}/{len(op['configs']):<3} {fmt(geo['cutile']):>9} "
                     f"{fmt(geo[C.UNTUNED]):>9} {fmt(geo['triton']):>9} {fmt(geo['pytorch']):>9} "
                     f"{fmt(frac.get('cutile-cpp'), '{:.0%}'):>10} {fmt(frac.get('cutile'), '{:.0%}'):>12}")
    for name, family in report["families"].items():
        geo = {b: family["geomean"].get(b, {}).get("value") for b in BASELINES}
        lines.append(f"{'[' + name + ']':22} {'':11} {'':7} {fmt(geo['cutile']):>9} {fmt(geo[C.UNTUNED]):>9} "
                     f"{fmt(geo['triton']):>9} {fmt(geo['pytorch']):>9}")
    ceil = report.get("ceilings", {})
    if "gbps" in ceil.get("copy", {}):
        lines.append(f"copy ceiling {ceil['copy']['gbps']:.0f} GB/s; bf16 mm "
                     f"{ceil.get('bf16_mm', {}).get('tflops', float('nan')):.0f} TFLOP/s")
    lines.append("ratios: baseline time / cutile-cpp time (> 1: cutile-cpp faster); untuned: TileGym's cutile "
                 "with autotuning off; geomean over configs, "
                 "families over ops")
    return "\n".join(lines)


# --- the run -------------------------------------------------------------------------------------------------


def plan(specs, subset: str) -> list[tuple]:
    """(spec, config) in run order: with subset 'full', every op's quick configs first, then the others
    round-robin over the ops, so that a time-budget cut leaves every op measured about equally; 'quick'
    and 'tiny' pick those configs alone."""
    if subset == "tiny":
        return [(s, C.Config(dict(s.tiny), quick=True)) for s in specs]
    quick = [(s, c) for s in specs for c in s.configs if c.quick]
    if subset == "quick":
        return quick
    rest = [[(s, c) for c in s.configs if not c.quick] for s in specs]
    return quick + [pair for row in itertools.zip_longest(*rest) for pair in row if pair is not None]


def run(specs, device: torch.device, subset="full", reps=100, warmup_ms=25.0, budget_s=None,
        backends=C.BACKENDS, with_ceilings=True, with_launch=True, progress=None, resume=None) -> dict:
    """The report (see docs/benchmarks.md). `progress(report)`, if given, gets the partial report (configs
    measured so far, no summaries, "partial": true) after each configuration, for a checkpoint file.
    `resume`: the checkpoint of a run whose process died: its entries are kept, and the first configuration
    it lacks (the one that was running) is recorded as having killed the process instead of being retried."""
    started = time.perf_counter()
    timer = GpuTimer(device) if device.type == "cuda" else CpuTimer()
    report = {"schema": SCHEMA, "meta": environment(device),
              "method": {"primary": "cuda-events" if device.type == "cuda" else "cpu-wall", "description": timer.method,
                         "l2_flush_bytes": FLUSH_BYTES if device.type == "cuda" else 0, "reps": reps,
                         "warmup_ms": warmup_ms, "statistic": "median; p10, p90, min also given",
                         "subset": subset, "budget_s": budget_s}}
    report["meta"]["argv"] = sys.argv
    if device.type == "cuda" and with_ceilings:
        log("ceilings: copy bandwidth, bf16 matmul")
        report["ceilings"] = ceilings(timer, device)
    else:
        report["ceilings"] = {"skipped": "needs a CUDA GPU" if device.type != "cuda" else "not asked for"}

    available = Backends(device, backends)
    report["import_errors"] = available.errors
    ops, statuses = {}, {}
    for spec in specs:
        statuses[spec.name] = available.for_op(spec)
        ops[spec.name] = {"family": spec.family, "tilegym_op": spec.tilegym_op, "source": spec.source,
                          "metric": spec.metric, "backends": statuses[spec.name],
                          "ported": statuses[spec.name].get("cutile-cpp") == "ok", "configs": []}
    shared, order, entries = {}, plan(specs, subset), {}

    def over_budget():
        return budget_s is not None and time.perf_counter() - started > budget_s

    def measured_configs(spec):  # in the op's own configuration order
        rank = {c.id: k for k, c in enumerate(spec.configs)}
        mine = sorted((k for k in entries if order[k][0] is spec), key=lambda k: rank.get(order[k][1].id, k))
        return [entries[k] for k in mine]

    def launch_overheads():
        if progress is not None:  # a process that dies in this phase is resumed without it
            progress(dict(report, ops=ops, partial=True, phase="launch overhead"))
        for spec in specs:
            if over_budget():
                ops[spec.name]["host_launch_us"] = {"skipped": f"time budget of {budget_s} s spent"}
                continue
            try:
                ops[spec.name]["host_launch_us"] = host_launch_overhead(spec, statuses[spec.name], device)
            except Exception as error:
                ops[spec.name]["host_launch_us"] = {"error": first_line(error)}

    done = {(name, e["id"]): e for name, op in (resume or {}).get("ops", {}).items() for e in op["configs"]}
    crashed = next((k for k, (s_, c) in enumerate(order) if (s_.name, c.id) not in done), None) if done else None
    if resume is not None and resume.get("phase") == "launch overhead":
        crashed, with_launch = None, False
        for op in ops.values():
            op["host_launch_us"] = {"error": "the process died in the launch-overhead phase (see bench.log)"}
    if resume is not None:
        report["resumed"] = {"kept": len(done), "crashed": None if crashed is None else
                             f"{order[crashed][0].name} {order[crashed][1].id}"}
        for name, op in resume.get("ops", {}).items():
            if name in ops and "host_launch_us" in op:  # the launch phase had run before the process died
                ops[name]["host_launch_us"] = op["host_launch_us"]
                with_launch = False
    for i, (spec, config) in enumerate(order):
        if (spec.name, config.id) in done:
            entries[i] = done[(spec.name, config.id)]
            continue
        if i == crashed:
            reason = "the process died while measuring this configuration (see bench.log); not retried"
            entries[i] = {"id": config.id, "params": {k: jsonable(v) for k, v in config.params.items()},
                          "quick": config.quick, "results": {b: {"status": "error", "reason": reason}
                                                             for b in statuses[spec.name]}}
            continue
        if with_launch and i > 0 and config.quick != order[i - 1][1].quick:
            launch_overheads()  # after the quick configurations, before the budget goes to the rest
            with_launch = False
        if over_budget():
            entries[i] = {"id": config.id, "params": {k: jsonable(v) for k, v in config.params.items()},
                          "quick": config.quick, "skipped": f"time budget of {budget_s} s spent", "results": {}}
            continue
        t0 = time.perf_counter()
        entries[i] = run_config(spec, config, statuses[spec.name], timer, device, reps, warmup_ms, shared)
        report["tilegym_autotune"] = tilegym_autotune_choices(report.get("tilegym_autotune", {}))
        summary = " ".join(f"{b}={r['median_ms']:.4g}" if "median_ms" in r else f"{b}={r.get('status')}"
                           for b, r in entries[i]["results"].items())
        log(f"[{i + 1}/{len(order)}] {spec.name} {config.id}: {summary} ({time.perf_counter() - t0:.1f} s)")
        if device.type == "cuda":
            torch.cuda.empty_cache()
        if progress is not None:
            for spec_ in specs:
                ops[spec_.name]["configs"] = measured_configs(spec_)
            progress(dict(report, ops=ops, partial=True, phase="configurations"))
    if with_launch:
        launch_overheads()
    for spec in specs:
        ops[spec.name]["configs"] = measured_configs(spec)
    finalize(report, ops)
    report["wall_s"] = time.perf_counter() - started
    return report


def finalize(report: dict, ops: dict) -> dict:
    """Ratios, geomeans, ceiling fractions and the family summaries of a (possibly partial) report."""
    copy_gbps = report.get("ceilings", {}).get("copy", {}).get("gbps")
    for op in ops.values():
        summarize_op(op, copy_gbps)
    report["ops"] = ops
    report["families"] = summarize_families(ops)
    report.pop("partial", None)
    return report


# --- first call (a fresh process per measurement) ------------------------------------------------------------


def first_calls(specs, device: torch.device, backends=C.BACKENDS) -> dict:
    """In this (fresh) process: wall time of each backend's first call of each op's tiny configuration,
    synchronised, after torch, TileGym, the plugin and the CUDA context are up. Cold or warm depends on the
    disk caches the caller points CUTILE_CACHE_DIR / CUDA_TILE_CACHE_DIR / TRITON_CACHE_DIR at."""
    available = Backends(device, backends)
    try:
        import cutile_cpp

        cutile_cpp.load_library()
    except Exception as error:
        available.errors.setdefault("cutile-cpp", first_line(error))
    torch.ones(1, device=device).add_(1)
    sync = (lambda: torch.cuda.synchronize(device)) if device.type == "cuda" else (lambda: None)
    sync()
    out = {}
    for spec in specs:
        out[spec.name] = {}
        try:
            inputs = spec.build(spec.tiny, device)
        except Exception as error:
            out[spec.name] = {"error": "building the inputs: " + first_line(error)}
            continue
        for backend, status in available.for_op(spec).items():
            if backend == "pytorch":
                continue
            if status != "ok":
                out[spec.name][backend] = status
                continue
            try:
                fresh = C.in_place_inputs(spec, inputs)
                start = time.perf_counter()
                spec.invoke(backend, spec.tiny, fresh)()
                sync()
                first = time.perf_counter() - start
                start = time.perf_counter()
                spec.invoke(backend, spec.tiny, C.in_place_inputs(spec, inputs))()
                sync()
                out[spec.name][backend] = {"first_ms": first * 1e3, "second_ms": (time.perf_counter() - start) * 1e3}
            except Exception as error:
                out[spec.name][backend] = {"error": first_line(error)}
    return out


def restrict(spec: C.OpSpec, ids: list[str]) -> C.OpSpec:
    return replace(spec, configs=[c for c in spec.configs if c.id in ids])

