"""The persistent kernel's tile candidates timed per dtype (TileGym neither tests nor benchmarks f32; its
bmm hands f32 to mma uncast, which tileiras compiles to the CUDA cores): does the shape rule's pick, made
from f16 measurements, also fit f32? Prints one line per (dtype, shape, config): median µs."""
import json
import sys

import torch
import triton.testing

import cutile_cpp

rows = []
for dtype in (torch.float32, torch.float16):
    for q, s in ((4, 2048), (2, 1024)):
        a = torch.rand(q, s, s, device="cuda", dtype=dtype)
        b = torch.rand(q, s, s, device="cuda", dtype=dtype)
        for config in (-1, 0, 1, 2):
            fn = lambda: cutile_cpp.bmm(a, b, config=config)
            fn()
            ms = triton.testing.do_bench(fn, warmup=10, rep=50)
            rows.append({"dtype": str(dtype), "Q": q, "MNK": s, "config": config, "us": round(ms * 1000, 1)})
            print(json.dumps(rows[-1]), flush=True)
        fn = lambda: cutile_cpp.bmm(a, b, static_persistent=False)
        ms = triton.testing.do_bench(fn, warmup=10, rep=50)
        rows.append({"dtype": str(dtype), "Q": q, "MNK": s, "config": "plain", "us": round(ms * 1000, 1)})
        print(json.dumps(rows[-1]), flush=True)
json.dump(rows, open(sys.argv[1], "w"), indent=1)
