"""Checks that cuTile Python (cuda-tile) finds a working tileiras, without a GPU: compiles a one-line kernel
ahead of time to an sm_90 cubin through cuda-tile's own compiler lookup (_find_compiler_bin: the
nvidia-cuda-tileiras pip packages, else `tileiras` on PATH, else $CUDA_HOME/bin, else /usr/local/cuda*).
Prints one JSON object: the tileiras it found, its version, the cubin size and the compile time.
    python3 bench/ops/cutile_toolchain.py [--gpu sm_90]
Exit status 0 when the cubin was written, 1 otherwise (the reason is in the JSON's "error").
"""

import argparse
import io
import json
import sys
import time


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gpu", default="sm_90")
    args = parser.parse_args()
    try:
        result, status = check(args.gpu), 0
    except Exception as error:  # any failure is the answer: report it instead of a traceback
        result, status = {"error": f"{type(error).__name__}: {error}"}, 1
    print(json.dumps(result, indent=1))
    return status


if __name__ == "__main__":
    sys.exit(main())
