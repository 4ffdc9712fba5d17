#!/usr/bin/env python3
"""Loads cubins of the reference vector add (tests/data/reference/vadd_cutile_python_13_3.tileirbc compiled
by a tileiras release) through the CUDA driver and runs each on random inputs against torch: whether this
driver runs that release's cubins. Tile kernels launch one thread per block; the kernel adds 128 elements
per block and takes each tensor as (pointer, extent, stride).

    usage: gpu_cubin_check.py CUBIN...      (prints one line per cubin; exit status 1 if any failed)
"""

from __future__ import annotations

import ctypes
import sys

import torch


def check(cu, path: str) -> str:
    image = open(path, "rb").read()
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    status = cu.cuModuleLoadData(ctypes.byref(module), image)
    if status:
        return f"FAIL load: CUresult {status}"
    status = cu.cuModuleGetFunction(ctypes.byref(function), module, b"vadd")
    if status:
        return f"FAIL function: CUresult {status}"
    n = 1_000_003  # ragged against the 128-element tile
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    c = torch.full((n,), float("nan"), device="cuda")
    values = []
    for t in (a, b, c):
        values += [ctypes.c_uint64(t.data_ptr()), ctypes.c_int32(n), ctypes.c_int32(1)]
    params = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
    blocks = (n + 127) // 128
    status = cu.cuLaunchKernel(function, blocks, 1, 1, 1, 1, 1, 0, None, params, None)
    if status:
        return f"FAIL launch: CUresult {status}"
    torch.cuda.synchronize()
    error = (c - (a + b)).abs().max().item()
    cu.cuModuleUnload(module)
    return f"{'PASS' if error == 0.0 else 'FAIL'} max |c - (a + b)| = {error} over {n} elements, {blocks} blocks"


def main() -> int:
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    cu = ctypes.CDLL("libcuda.so.1")
    version = ctypes.c_int()
    cu.cuDriverGetVersion(ctypes.byref(version))
    print(f"driver API {version.value}, {torch.cuda.get_device_name()}")
    failed = False
    for path in sys.argv[1:]:
        line = check(cu, path)
        failed |= not line.startswith("PASS")
        print(f"{path}: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
