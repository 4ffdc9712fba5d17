"""cutile_cpp: the cutile-cpp kernel library for PyTorch, through the C ABI of libcutile_cpp_kernels.so.

    import cutile_cpp
    y = cutile_cpp.softmax(x)  # x: 2-D; on x's GPU and its current stream, or on the CPU interpreter

`import cutile_cpp.tilegym` registers the ops with TileGym's dispatcher as backend "cutile-cpp".
"""

from __future__ import annotations

from ._library import load as load_library
from .errors import CutileCppBuildError, CutileCppError
from .ops import dropout, softmax, vector_add

__all__ = ["CutileCppBuildError", "CutileCppError", "dropout", "load_library", "softmax", "vector_add"]
