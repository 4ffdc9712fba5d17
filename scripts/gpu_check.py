#!/usr/bin/env python3
"""Runs AOT-compiled example kernels on the GPU through the CUDA driver and checks them against PyTorch.

Usage: gpu_check.py AOT_DIR [--json OUT.json]
AOT_DIR holds the cubins and manifest.json written by `cutile-examples --aot AOT_DIR` (builder kernels)
or `cutile-dsl-examples --aot AOT_DIR` (DSL kernels). Needs torch with
CUDA; needs no tileiras. Every output is poisoned with NaN before the launch; inputs are fresh random
numbers; shapes include ragged ones. Exit status 1 if any check fails.
"""
import argparse
import ctypes
import json
import math
import pathlib
import sys

import torch

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f8e4m3fn": torch.float8_e4m3fn}
# ‖out − ref‖ / ‖ref‖ bounds: f32 mma may run as tf32 on the tensor cores; f8 GEMMs write f16.
TOLERANCE = {"f32": 2e-3, "f16": 2e-3, "bf16": 1e-2, "f8e4m3fn": 2e-3}


class Driver:
    def __init__(self):
        torch.zeros(1, device="cuda")  # makes torch's primary context current for the driver calls below
        self.cu = ctypes.CDLL("libcuda.so.1")

    def check(self, result, what):
        if result != 0:
            name = ctypes.c_char_p()
            self.cu.cuGetErrorName(result, ctypes.byref(name))
            raise RuntimeError(f"{what} failed: {name.value.decode()} ({result})")

    def load(self, cubin: bytes, symbol: str):
        module = ctypes.c_void_p()
        self.check(self.cu.cuModuleLoadData(ctypes.byref(module), cubin), "cuModuleLoadData")
        function = ctypes.c_void_p()
        self.check(self.cu.cuModuleGetFunction(ctypes.byref(function), module, symbol.encode()), "cuModuleGetFunction")
        return function

    def launch(self, function, grid, args):
        holders = [ctypes.c_uint64(a.data_ptr()) if isinstance(a, torch.Tensor)
                   else ctypes.c_float(a) if isinstance(a, float) else ctypes.c_int32(a) for a in args]
        pointers = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        self.check(self.cu.cuLaunchKernel(function, *grid, 1, 1, 1, 0, stream, pointers, None), "cuLaunchKernel")


def cdiv(a, b):
    return (a + b - 1) // b


def relative_error(out, ref):
    out64, ref64 = out.double(), ref.double()
    if not torch.isfinite(out64).all():
        return math.inf
    return ((out64 - ref64).norm() / ref64.norm().clamp_min(1e-30)).item()


def check_vector_add(driver, fn, entry, dtype, n):
    a = torch.randn(n, device="cuda", dtype=dtype)
    b = torch.randn(n, device="cuda", dtype=dtype)
    c = torch.full((n,), float("nan"), device="cuda", dtype=dtype)
    driver.launch(fn, (cdiv(n, entry["tile"]), 1, 1), [a, b, c, n])
    torch.cuda.synchronize()
    return relative_error(c, a + b), f"n={n}"


def check_row_softmax(driver, fn, entry, dtype, rows, cols):
    x = torch.randn(rows, cols, device="cuda", dtype=dtype) * 4
    y = torch.full((rows, cols), float("nan"), device="cuda", dtype=dtype)
    driver.launch(fn, (rows, 1, 1), [x, y, rows, cols, x.stride(0), y.stride(0)])
    torch.cuda.synchronize()
    return relative_error(y, torch.softmax(x.float(), dim=1).to(dtype)), f"{rows}x{cols}"


def check_tiled_gemm(driver, fn, entry, dtype, m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    b = torch.randn(k, n, device="cuda", dtype=dtype)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    driver.launch(fn, (cdiv(m, entry["bm"]), cdiv(n, entry["bn"]), 1), [a, b, c, m, n, k, k, n, n])
    torch.cuda.synchronize()
    ref = (a.double() @ b.double())
    return relative_error(c, ref), f"{m}x{n}x{k}"


def check_dsl_vector_add(driver, fn, entry, dtype, n):
    a = torch.randn(n, device="cuda", dtype=dtype)
    b = torch.randn(n, device="cuda", dtype=dtype)
    c = torch.full((n,), float("nan"), device="cuda", dtype=dtype)
    args = []
    for t in (c, a, b):  # the kernel's parameter order: out, then inputs; each as (pointer, extents, strides)
        args += [t, *t.shape, *t.stride()]
    driver.launch(fn, (cdiv(n, 1024), 1, 1), args)
    torch.cuda.synchronize()
    return relative_error(c, a + b), f"n={n}"


def check_dsl_row_softmax(driver, fn, entry, dtype, rows, cols):
    x = torch.randn(rows, cols, device="cuda", dtype=dtype) * 4
    y = torch.full((rows, cols), float("nan"), device="cuda", dtype=dtype)
    args = []
    for t in (y, x):
        args += [t, *t.shape, *t.stride()]
    driver.launch(fn, (rows, 1, 1), args)
    torch.cuda.synchronize()
    return relative_error(y, torch.softmax(x.float(), dim=1).to(dtype)), f"{rows}x{cols}"


def tensor_args(*tensors):
    """Each tensor as the DSL passes it: pointer, extents, strides (in elements)."""
    args = []
    for t in tensors:
        args += [t, *t.shape, *t.stride()]
    return args


def random(shape, dtype):
    return torch.randn(shape, device="cuda").to(dtype)


def check_dsl_matmul(driver, fn, entry, dtype, m, n, k, persistent=False):
    a, b = random((m, k), dtype), random((k, n), dtype)
    out_dtype = torch.float16 if dtype == torch.float8_e4m3fn else dtype
    c = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
    tiles = cdiv(m, 128) * cdiv(n, 128)
    grid = (min(tiles, torch.cuda.get_device_properties(0).multi_processor_count), 1, 1) if persistent \
        else (cdiv(m, 128), cdiv(n, 128), 1)
    driver.launch(fn, grid, tensor_args(c, a, b))
    torch.cuda.synchronize()
    return relative_error(c, a.double() @ b.double()), f"{m}x{n}x{k}"


def check_dsl_fmha(driver, fn, entry, dtype, bh, s, heads, group, causal=False):
    d = 64
    q = random((bh, s, d), dtype)
    k, v = random((bh // group, s, d), dtype), random((bh // group, s, d), dtype)
    o = torch.full((bh, s, d), float("nan"), device="cuda", dtype=dtype)
    driver.launch(fn, (cdiv(s, 64), bh, 1), tensor_args(o, q, k, v) + [1.0 / math.sqrt(d), 0, heads, group])
    torch.cuda.synchronize()
    # (B·H, S, D) → (B, H, S, D) with K/V heads repeated per query group.
    b = bh // heads
    q4 = q.view(b, heads, s, d).double()
    k4 = k.view(b, heads // group, s, d).double().repeat_interleave(group, dim=1)
    v4 = v.view(b, heads // group, s, d).double().repeat_interleave(group, dim=1)
    ref = torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=causal).view(bh, s, d)
    return relative_error(o, ref), f"{bh}x{s} h={heads} g={group}"


CASES = {
    # DSL kernels were specialised for one shape (its divisibility facts): run exactly that shape.
    "dsl_vector_add": lambda e: [(check_dsl_vector_add, tuple(e["shape"]))],
    "dsl_row_softmax": lambda e: [(check_dsl_row_softmax, tuple(e["shape"]))],
    "dsl_matmul": lambda e: [(check_dsl_matmul, tuple(e["shape"]))],
    "dsl_persistent_matmul": lambda e: [(lambda *a: check_dsl_matmul(*a, persistent=True), tuple(e["shape"]))],
    "dsl_fmha": lambda e: [(check_dsl_fmha, tuple(e["shape"]))],
    "dsl_fmha_causal": lambda e: [(lambda *a: check_dsl_fmha(*a, causal=True), tuple(e["shape"]))],
    "vector_add": lambda e: [(check_vector_add, (n,)) for n in (4096, 1_000_003)],
    "row_softmax": lambda e: [(check_row_softmax, s) for s in
                              {4096: [(4096, 4096), (37, 4096)], 1024: [(1024, 1000)]}[e["tile_n"]]],
    "tiled_gemm": lambda e: [(check_tiled_gemm, s) for s in ((1000, 777, 300), (2048, 2048, 2048))],
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("aot_dir", type=pathlib.Path)
    parser.add_argument("--json", type=pathlib.Path)
    args = parser.parse_args()
    manifest = json.loads((args.aot_dir / "manifest.json").read_text())
    driver = Driver()
    torch.manual_seed(0)
    props = torch.cuda.get_device_properties(0)
    version = ctypes.c_int()
    driver.check(driver.cu.cuDriverGetVersion(ctypes.byref(version)), "cuDriverGetVersion")
    print(f"GPU {props.name} sm_{props.major}{props.minor}, driver API {version.value}, torch {torch.__version__}")
    results, failed = [], 0
    for entry in manifest["kernels"]:
        if entry["gpu"] != f"sm_{props.major}{props.minor}":
            continue
        fn = driver.load((args.aot_dir / entry["cubin"]).read_bytes(), entry.get("symbol", entry["kernel"]))
        for check, shape in CASES[entry["kernel"]](entry):
            error, label = check(driver, fn, entry, DTYPES[entry["dtype"]], *shape)
            ok = error <= TOLERANCE[entry["dtype"]]
            failed += not ok
            results.append({"kernel": entry["kernel"], "dtype": entry["dtype"], "shape": label,
                            "relative_error": error, "tolerance": TOLERANCE[entry["dtype"]], "ok": ok})
    print(f"{'kernel':<16} {'dtype':<5} {'shape':<16} {'rel. error':>10}  result")
    for r in results:
        print(f"{r['kernel']:<16} {r['dtype']:<5} {r['shape']:<16} {r['relative_error']:>10.2e}  "
              f"{'ok' if r['ok'] else 'FAIL'}")
    print(f"{len(results) - failed} passed, {failed} failed")
    if args.json:
        args.json.write_text(json.dumps({"gpu": props.name, "driver_api": version.value, "results": results}, indent=1))
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
