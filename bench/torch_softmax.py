#!/usr/bin/env python3
"""torch.softmax device time on the same problem as cutile-bench-softmax, measured the same way: CUDA
events around each call, a 256 MiB memset before each timed call to flush L2, median of 100 runs after
warm-up. Prints one JSON object."""
import json
import sys

import torch

rows, cols = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (4096, 4096)
x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
for _ in range(10):
    torch.softmax(x, dim=1)
times = []
for _ in range(100):
    flush.zero_()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.softmax(x, dim=1)
    stop.record()
    stop.synchronize()
    times.append(start.elapsed_time(stop))
times.sort()
median = times[len(times) // 2]
print(json.dumps({"gpu": torch.cuda.get_device_name(), "kernel": "torch.softmax(bf16, dim=1)", "shape": [rows, cols],
                  "runs": len(times), "device_ms_median": median, "device_ms_min": times[0],
                  "achieved_GBps": 2 * rows * cols * 2 / (median * 1e-3) / 1e9, "torch": torch.__version__}))
