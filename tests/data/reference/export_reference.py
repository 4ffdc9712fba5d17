"""Exports reference Tile IR bytecode from cuTile Python for the bytecode reader tests.

Run with the cuTile Python environment from this directory:
    python export_reference.py
Writes softmax_cutile_python_13_3.tileirbc (a row softmax: reduce) and gemm_cutile_python_13_3.tileirbc
(a K-loop GEMM: for + mmaf). No GPU is needed.
"""
import cuda.tile as ct
from cuda.tile.compilation import ArrayConstraint, CallingConvention, KernelSignature, export_kernel

VERSION = "13.3"


@ct.kernel
def softmax_rows(x, y, TILE_N: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_N))
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    ct.store(y, index=(row, 0), tile=e / ct.sum(e, axis=1, keepdims=True))


@ct.kernel
def gemm(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.full((BM, BN), 0.0, dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(BM, BK))):
        ta = ct.load(a, index=(i, k), shape=(BM, BK))
        tb = ct.load(b, index=(k, j), shape=(BK, BN))
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(i, j), tile=ct.astype(acc, c.dtype))


def matrix(dtype):
    return ArrayConstraint(dtype, 2, index_dtype=ct.int32, stride_lower_bound_incl=0, alias_groups=(),
                           may_alias_internally=False, stride_constant=(None, 1), base_addr_divisible_by=16,
                           shape_divisible_by=1)


def export(kernel, params, path):
    sig = KernelSignature(params, CallingConvention.cutile_python_v1(), symbol=kernel.__name__ if hasattr(kernel, "__name__") else None)
    export_kernel(kernel, [sig], path, output_format="tileir_bytecode", bytecode_version=VERSION)


export(softmax_rows, [matrix(ct.float32), matrix(ct.float32), 256], "softmax_cutile_python_13_3.tileirbc")
export(gemm, [matrix(ct.float16), matrix(ct.float16), matrix(ct.float16), 64, 64, 32], "gemm_cutile_python_13_3.tileirbc")
