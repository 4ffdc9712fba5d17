"""Checks that cuTile Python (cuda-tile) finds a working tileiras, without a GPU: compiles a one-line kernel
ahead of time to an sm_90 cubin through cuda-tile's own compiler lookup (_find_compiler_bin: the
nvidia-cuda-tileiras pip packages, else `tileiras` on PATH, else $CUDA_HOME/bin, else /usr/local/cuda*).
Prints one JSON object: the tileiras it found, its version, the cubin size and the compile time.
    python3 bench/ops/cutile_toolchain.py [--gpu sm_90]
Exit status 0 when the cubin was written, 1 otherwise (the reason is in the JSON's "error").

    python3 bench/ops/cutile_toolchain.py --wrap CU13_DIR --into BIN_DIR
writes BIN_DIR/tileiras, which runs CU13_DIR/bin/tileiras with CUDA_HOME=CU13_DIR: a tileiras outside the
nvidia-cuda-tileiras pip packages finds libNVVM (CU13_DIR/lib/libnvvm.so.4) only through CUDA_HOME, and
cuda-tile passes the caller's environment on; with BIN_DIR first on PATH, cuda-tile finds the wrapper and
nothing else sees a changed CUDA_HOME.
"""

import argparse
import io
import json
import os
import sys
import time
from pathlib import Path


def release_line(version_text: str) -> str:
    return next((line.strip() for line in version_text.splitlines() if "release" in line), version_text.strip())


def check(gpu: str) -> dict:
    global ct  # the kernel's annotations are resolved in this module's globals
    import cuda.tile as ct
    from cuda.tile import _compile
    from cuda.tile.compilation import ArrayConstraint, KernelSignature, export_kernel

    @ct.kernel
    def scale2(x, y, TILE: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2.0)

    array = ArrayConstraint(ct.float32, 1, index_dtype=ct.int32, stride_lower_bound_incl=0, alias_groups=(),
                            may_alias_internally=False, stride_constant=[1], stride_divisible_by=[1],
                            shape_divisible_by=[16], base_addr_divisible_by=16)
    params = [array, array, ct.compilation.ConstantConstraint(128)]
    signature = KernelSignature(params, ct.compilation.CallingConvention.cutile_python_v1()).with_symbol("scale2")
    compiler = _compile._find_compiler_bin()
    out = io.BytesIO()
    start = time.perf_counter()
    export_kernel(scale2, [signature], out, gpu_code=gpu, output_format="cubin")
    version = release_line(_compile._try_get_compiler_version(compiler.path) or "")
    return {"tileiras": compiler.path, "tileiras_version": version,
            "gpu": gpu, "cubin_bytes": len(out.getvalue()), "compile_s": round(time.perf_counter() - start, 3)}


def write_wrapper(cu13: Path, bin_dir: Path) -> Path:
    cu13 = cu13.resolve()
    if not os.access(cu13 / "bin" / "tileiras", os.X_OK):
        raise SystemExit(f"cutile_toolchain.py: no executable {cu13 / 'bin' / 'tileiras'}")
    bin_dir.mkdir(parents=True, exist_ok=True)
    wrapper = bin_dir / "tileiras"
    wrapper.write_text(f'#!/bin/sh\nCUDA_HOME="{cu13}" exec "{cu13}/bin/tileiras" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gpu", default="sm_90")
    parser.add_argument("--wrap", type=Path, metavar="CU13_DIR", help="write a tileiras wrapper for this prefix")
    parser.add_argument("--into", type=Path, metavar="BIN_DIR", help="where --wrap writes it")
    args = parser.parse_args()
    if args.wrap:
        if not args.into:
            parser.error("--wrap needs --into")
        print(write_wrapper(args.wrap, args.into))
        return 0
    try:
        result, status = check(args.gpu), 0
    except Exception as error:  # any failure is the answer: report it instead of a traceback
        result, status = {"error": f"{type(error).__name__}: {error}"}, 1
    print(json.dumps(result, indent=1))
    return status


if __name__ == "__main__":
    sys.exit(main())
