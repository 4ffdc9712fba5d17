"""The kernel library's ops on torch.Tensors: one function per op of the library, made from the op's
description (python/cutile_cpp/_functions.py says what every function does), with its torch.library op
torch.ops.cutile_cpp.<op>. They are made when this module is imported; if the library cannot be loaded
then, importing still succeeds and the first use of an op raises why.

    from cutile_cpp import ops
    y = ops.softmax(x)           # x: 2-D; on x's GPU and its current stream, or on the CPU interpreter
    help(ops.rms_norm)           # its tensors, dtypes, parameters and rules
"""

from __future__ import annotations

import functools


@functools.cache
def _built() -> dict:
    from . import _functions as functions

    return functions.build()


def __getattr__(name: str):
    if name == "__all__":
        return sorted(_built())
    try:
        function = _built()[name]
    except KeyError:
        raise AttributeError(f"module 'cutile_cpp.ops' has no op {name!r}") from None
    globals()[name] = function  # later lookups find it without this hook
    return function


def __dir__():
    return sorted(set(globals()) | set(_built()))


def _build_now() -> None:
    from .errors import CutileCppError

    try:
        _built()
    except CutileCppError:
        pass  # functools.cache keeps no result: the first use tries again and raises


_build_now()
