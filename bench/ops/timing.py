"""Timing one call of a backend, and the machine's copy and matmul ceilings measured the same way.

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

import statistics
import time

import torch

from errors import first_line

FLUSH_BYTES = 256 << 20
METHOD_GPU = (
    "CUDA events around each call on the current stream; before each call a 256 MiB buffer is written "
    "(L2 flush) and torch.cuda._sleep covers the call's host cost, so the events time device work only; "
    "warm-up of >= 3 calls and >= 25 ms (covers first-call autotuning); median (p10, p90) over the repetitions"
)
METHOD_CPU = "CPU wall time per call (time.perf_counter); no GPU: these numbers test the harness, not speed"


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
