"""The library's ops as the binding sees them: their descriptions (cutile_cpp_op_specs) and the one call
of every op (cutile_cpp_call, through the C extension cutile_cpp._native), with failed statuses raised as
exceptions."""

from __future__ import annotations

import ctypes
import functools
import json
from dataclasses import dataclass

import torch

from . import _library
from .errors import CutileCppError, CutileCppTypeError, CutileCppValueError

# torch dtype → the name of its Dtype in the descriptions (and, upper-cased, its cutile_cpp_dtype code).
TORCH_DTYPES = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.int32: "i32",
    torch.int64: "i64",
    torch.float8_e4m3fn: "f8e4m3fn",
    torch.float8_e5m2: "f8e5m2",
    torch.bool: "bool",
    torch.uint8: "u8",
}
_TYPE_ERRORS = {"CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE", "CUTILE_CPP_ERROR_DTYPE_MISMATCH"}
_VALUE_ERRORS = {
    "CUTILE_CPP_ERROR_NULL_POINTER",
    "CUTILE_CPP_ERROR_INVALID_DESCRIPTOR",
    "CUTILE_CPP_ERROR_RANK_MISMATCH",
    "CUTILE_CPP_ERROR_SHAPE_MISMATCH",
    "CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE",
    "CUTILE_CPP_ERROR_DEVICE_MISMATCH",
    "CUTILE_CPP_ERROR_ALIASING",
    "CUTILE_CPP_ERROR_INVALID_ARGUMENT",
}


@dataclass(frozen=True)
class Library:
    """The loaded library: its op descriptions (number = index), dtype codes both ways, and the call
    extension configured with them."""

    specs: list[dict]
    dtype_of_code: dict[int, torch.dtype]
    native: object  # cutile_cpp._native

    def number(self, name: str) -> int:
        return next(i for i, spec in enumerate(self.specs) if spec["name"] == name)


@functools.cache
def library() -> Library:
    binding = _library.load()
    document = json.loads(binding.cutile_cpp_op_specs().decode())
    codes = {name: code for code, name in enumerate(document["dtypes"])}
    native = _library.load_native_module()
    call = ctypes.cast(binding.cutile_cpp_call, ctypes.c_void_p).value
    output_shapes = ctypes.cast(binding.cutile_cpp_output_shapes, ctypes.c_void_p).value
    native.configure({dtype: codes[name] for dtype, name in TORCH_DTYPES.items()}, call, output_shapes)
    dtype_of_code = {codes[name]: dtype for dtype, name in TORCH_DTYPES.items()}
    return Library(document["ops"], dtype_of_code, native)


def raise_for(status: int) -> None:
    """The exception of a failed status, with the library's message for this thread."""
    binding = _library.load()
    name = binding.cutile_cpp_status_name(status).decode()
    message = binding.cutile_cpp_last_error().decode()
    kind = CutileCppTypeError if name in _TYPE_ERRORS else CutileCppValueError if name in _VALUE_ERRORS else CutileCppError
    raise kind(message, status, name)
