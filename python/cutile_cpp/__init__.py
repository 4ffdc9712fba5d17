"""cutile_cpp: the cutile-cpp kernel library for PyTorch, through the C ABI of libcutile_cpp_kernels.so.

    import cutile_cpp
    y = cutile_cpp.softmax(x)  # x: 2-D; on x's GPU and its current stream, or on the CPU interpreter

Every op of the library is a function here (and in cutile_cpp.ops), made from its description when
first used. `import cutile_cpp.tilegym` registers the ops with TileGym's dispatcher as backend
"cutile-cpp".
"""

from __future__ import annotations

from . import ops
from ._library import load as load_library
from .errors import CutileCppBuildError, CutileCppError, CutileCppTypeError, CutileCppValueError

_NAMES = ["CutileCppBuildError", "CutileCppError", "CutileCppTypeError", "CutileCppValueError", "load_library"]


def __getattr__(name: str):
    if name == "__all__":
        return _NAMES + ops.__all__
    if name.startswith("_"):
        raise AttributeError(f"module 'cutile_cpp' has no attribute {name!r}")
    value = getattr(ops, name)
    globals()[name] = value  # later lookups find it without this hook
    return value
