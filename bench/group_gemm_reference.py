#!/usr/bin/env python3
"""TileGym's cuTile Python group GEMM kernel and PyTorch (one torch.matmul per group) on the
configurations of cutile-bench-group-gemm, timed the same way: CUDA events around each call, a 256 MiB
memset before each timed call to flush L2, median of 30 runs after warm-up. The kernel is launched for
each of the two sm_90 candidates of TileGym's autotuner with the grid and hints its launcher uses; the
op itself is not called because its autotuner gives tileiras 5 s per candidate, which is too little for
these tiles on a loaded host. Prints one JSON object."""
import json

import cuda.tile as ct
import torch
from tilegym.ops.cutile.group_gemm import _group_gemm_kernel

# (TILE_M, TILE_N, TILE_K, num_ctas, occupancy): TileGym's candidates for compute capability 9.0.
CANDIDATES = {"128x128x128_ctas1": (128, 128, 128, 1, 1), "256x256x64_ctas2": (256, 256, 64, 2, 1)}

CONFIGS = [(4, 1024), (16, 1024), (4, 2048), (16, 2048), (4, 4096), (16, 4096)]


def median_ms(fn, flush):
    for _ in range(5):
        fn()
    times = []
    for _ in range(30):
        flush.zero_()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def main():
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    results = []
    for groups, size in CONFIGS:
        a = [torch.randn(size, size, device="cuda", dtype=torch.float16) for _ in range(groups)]
        b = [torch.randn(size, size, device="cuda", dtype=torch.float16) for _ in range(groups)]
        times = {"torch": median_ms(lambda: [torch.matmul(x, y) for x, y in zip(a, b)], flush)}
        for name, (tm, tn, tk, ctas, occupancy) in CANDIDATES.items():
            c = [torch.empty(size, size, device="cuda", dtype=torch.float16) for _ in range(groups)]
            kernel = _group_gemm_kernel.replace_hints(num_ctas=ctas, occupancy=occupancy)
            grid = sms // ctas * occupancy

            def launch():
                ct.launch(torch.cuda.current_stream(), (grid, 1, 1), kernel, (a, b, c, tm, tn, tk, grid, False))

            times["cutile_python_" + name] = median_ms(launch, flush)
            for x, y, z in zip(a, b, c):  # the kernel's results agree with PyTorch's before its time counts
                torch.testing.assert_close(z, torch.matmul(x, y), rtol=2e-2, atol=2e-1)
        results.append({"groups": groups, "M": size, "N": size, "K": size, "device_ms_median": times})
    print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "configs": results}))


if __name__ == "__main__":
    main()
