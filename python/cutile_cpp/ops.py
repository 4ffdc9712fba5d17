"""The kernel library's ops on torch.Tensors.

Each op checks its arguments in Python (TypeError/ValueError naming the argument), allocates its output
on the input's device, and runs the kernel through the C ABI: for CUDA tensors on that device's current
stream, without a copy or a synchronisation; for CPU tensors on the CPU interpreter, before it returns; a failure of the library raises CutileCppError with its status. Each op is
also a torch.library custom op, `torch.ops.cutile_cpp.<op>`, with a fake implementation, so torch.compile
traces through it without a graph break (eager calls go to the library directly).

The ops are forward-only: inputs that require grad are detached (with a warning) and results carry no
gradient.
"""

from __future__ import annotations

import warnings

import torch

from . import _tensor

_FLOAT_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def _check_tensor(op: str, name: str, value) -> None:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"cutile_cpp.{op}: {name} must be a torch.Tensor, got {type(value).__name__}")
    if value.dtype not in _FLOAT_DTYPES:
        raise TypeError(f"cutile_cpp.{op}: {name} has dtype {value.dtype}; supported: float32, float16, bfloat16")
    if value.device.type not in ("cuda", "cpu"):
        raise ValueError(f"cutile_cpp.{op}: {name} is on {value.device}; the ops take CUDA or CPU tensors")


def _forward_only(op: str, *tensors: torch.Tensor) -> list[torch.Tensor] | tuple[torch.Tensor, ...]:
    if not any(t.requires_grad for t in tensors):
        return tensors  # nothing to detach
    if torch.is_grad_enabled():
        warnings.warn(
            f"cutile_cpp.{op} is forward-only: its inputs are detached and its result has no gradient", stacklevel=3
        )
    return [t.detach() for t in tensors]


# softmax ---------------------------------------------------------------------------------------------


def _softmax(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    _tensor.call("cutile_cpp_softmax", [y, x], ["y", "x"])
    return y


@torch.library.custom_op("cutile_cpp::softmax", mutates_args=())
def _softmax_op(x: torch.Tensor) -> torch.Tensor:
    return _softmax(x)


@_softmax_op.register_fake
def _softmax_fake(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax(x) over the last axis of a 2-D (M, N) tensor of float32, float16 or bfloat16 with
    N ≤ 16384, computed in float32. Returns a new tensor laid out like torch.empty_like(x). Forward-only."""
    _check_tensor("softmax", "x", x)
    if x.dim() != 2:
        raise ValueError(f"cutile_cpp.softmax: x must be 2-D (M, N), got shape {tuple(x.shape)}")
    (x,) = _forward_only("softmax", x)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.softmax(x)
    return _softmax(x)


# vector_add ------------------------------------------------------------------------------------------


def _vector_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty_like(a)
    _tensor.call("cutile_cpp_vector_add", [c, a, b], ["c", "a", "b"])
    return c


@torch.library.custom_op("cutile_cpp::vector_add", mutates_args=())
def _vector_add_op(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _vector_add(a, b)


@_vector_add_op.register_fake
def _vector_add_fake(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(a)


def vector_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a + b for 1-D tensors of one shape, dtype (float32, float16 or bfloat16) and device. Returns a new
    tensor laid out like torch.empty_like(a). Forward-only."""
    _check_tensor("vector_add", "a", a)
    _check_tensor("vector_add", "b", b)
    if a.dim() != 1 or b.dim() != 1:
        raise ValueError(f"cutile_cpp.vector_add: a and b must be 1-D, got shapes {tuple(a.shape)} and {tuple(b.shape)}")
    if a.shape != b.shape:
        raise ValueError(f"cutile_cpp.vector_add: a and b differ in length: {a.shape[0]} and {b.shape[0]}")
    if a.dtype != b.dtype:
        raise TypeError(f"cutile_cpp.vector_add: a and b differ in dtype: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"cutile_cpp.vector_add: a and b are on different devices: {a.device} and {b.device}")
    a, b = _forward_only("vector_add", a, b)
    if torch.compiler.is_compiling():
        return torch.ops.cutile_cpp.vector_add(a, b)
    return _vector_add(a, b)
