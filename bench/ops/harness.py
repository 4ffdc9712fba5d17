"""The measuring part of bench/ops/run.py: backends, correctness gate and the run over ops and
configurations, host launch overhead and first calls. Timing is in timing.py, the environment in
environment.py, ratios, geomeans and the table in summary.py."""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from dataclasses import replace

import torch

import configs as C
import environment
import tilecpp_backend
from errors import first_line
from names import SCHEMA
from summary import finalize
from timing import FLUSH_BYTES, CpuTimer, GpuTimer, ceilings


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- backends ------------------------------------------------------------------------------------------------


class Backends:
    """Imports TileGym and the cutile-cpp plugin once; says per op which backends can run and why not."""

    def __init__(self, device: torch.device, wanted: tuple = C.BACKENDS):
        self.device, self.wanted, self.errors = device, wanted, {}
        self.tilecpp_reason = None
        tilecpp_backend.prepare()  # before TileGym reads TILECPP_NVCC_PATH
        try:
            import tilegym
            import tilegym.ops  # noqa: F401  (imports the cutile, triton and tilecpp implementations)
            from tilegym.backend import dispatcher, selector

            self.dispatcher, self.tilegym = dispatcher, tilegym
            self.tilecpp_reason = tilecpp_backend.unavailable_reason(
                available=selector.is_tilecpp_available,
                import_error=None if selector._TILECPP_MODULE_IMPORTABLE else selector._tilecpp_unavailable_err)
        except Exception as error:
            self.dispatcher, self.tilegym = None, None
            self.errors["tilegym"] = first_line(error)
        if "cutile-cpp" not in wanted:
            return  # a run without it neither loads nor, in development mode, builds the library
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
        if backend == tilecpp_backend.NAME and self.tilecpp_reason:
            return f"unavailable: {self.tilecpp_reason}"
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
    misses = tilecpp_backend.MissLog() if backend == tilecpp_backend.NAME else None
    mark = misses.mark() if misses else 0
    try:
        fresh = C.in_place_inputs(spec, inputs)
        out = spec.invoke(backend, config.params, fresh)()
        timer.synchronize()
        missing = misses.since(mark) if misses else None
        if missing:  # TileGym's autotuner may have dropped the candidate without a word
            return {"status": "error", "reason": missing}
        spec.check(out, config.params, fresh)
        del out, fresh
    except AssertionError as error:
        return {"status": "failed", "reason": first_line(error)}
    except Exception as error:
        return {"status": "error", "reason": first_line(error)}
    try:
        result = {"status": "ok", **timer.measure(spec.invoke(backend, config.params, inputs), reps, warmup_ms)}
    except Exception as error:
        return {"status": "error", "reason": "while timing: " + first_line(error)}
    missing = misses.since(mark) if misses else None
    return {"status": "error", "reason": "while timing: " + missing} if missing else result


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
        key = (spec.name, backend, invariant) if backend in spec.variantless and spec.variant_params else None
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
    report = {"schema": SCHEMA, "meta": environment.describe(device),
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
