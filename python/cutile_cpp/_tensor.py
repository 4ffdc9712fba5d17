"""torch.Tensor → cutile_cpp_tensor descriptors, and calls that turn a failed status into CutileCppError."""

from __future__ import annotations

import threading

import torch

from . import _library
from .errors import CutileCppError

# torch dtype → the name of its cutile_cpp_dtype code in the header.
_DTYPE_NAMES = {
    torch.float32: "CUTILE_CPP_F32",
    torch.float16: "CUTILE_CPP_F16",
    torch.bfloat16: "CUTILE_CPP_BF16",
    torch.int32: "CUTILE_CPP_I32",
    torch.int64: "CUTILE_CPP_I64",
    torch.float8_e4m3fn: "CUTILE_CPP_F8E4M3FN",
    torch.float8_e5m2: "CUTILE_CPP_F8E5M2",
    torch.bool: "CUTILE_CPP_BOOL",
    torch.uint8: "CUTILE_CPP_U8",
}


class _Descriptors:
    """The descriptor struct of the header binding and the C packer (cutile_cpp._descriptors), configured
    with the header's dtype codes."""

    def __init__(self, binding):
        self.type = binding.structs["cutile_cpp_tensor"]
        self.binding = binding
        dtypes = binding.enums["cutile_cpp_dtype"]
        self.packer = _library.load_descriptors()
        self.packer.configure({dtype: dtypes[name] for dtype, name in _DTYPE_NAMES.items()})


_descriptors: _Descriptors | None = None


def _descriptors_of_library() -> _Descriptors:
    global _descriptors
    if _descriptors is None:
        _descriptors = _Descriptors(_library.load())
    return _descriptors


def descriptor(tensor: torch.Tensor, name: str = "tensor"):
    """A cutile_cpp_tensor describing `tensor` (which must outlive the call it is passed to). A dtype
    without a code is a TypeError; a device other than CUDA or CPU, or too many dims, a ValueError."""
    descriptors = _descriptors_of_library()
    result = descriptors.type()
    descriptors.packer.pack(result, (tensor,), (name,))
    return result


def check_status(status: int) -> None:
    if status != 0:
        binding = _library.load()
        raise CutileCppError(
            binding.cutile_cpp_last_error().decode(), status, binding.cutile_cpp_status_name(status).decode()
        )


class _CallBuffers(threading.local):
    """Per thread: descriptors of one call, packed in place (no descriptor objects made per call)."""

    def __init__(self):
        self.array = None
        self.references = []


_buffers = _CallBuffers()


def call(function: str, tensors: list[torch.Tensor], names: list[str], params: tuple = ()) -> None:
    """Calls cutile_cpp_<op>(descriptors..., params..., device_id, stream) on the device of the first
    tensor and its current stream."""
    descriptors = _descriptors_of_library()
    buffers = _buffers
    if len(buffers.references) < len(tensors):
        buffers.array = (descriptors.type * max(len(tensors), 8))()
        buffers.references = list(buffers.array)  # element views of the array's memory, passed by reference
    descriptors.packer.pack(buffers.array, tensors, names)
    first = tensors[0]
    if first.is_cuda:
        index = first.get_device()
        stream = torch._C._cuda_getCurrentRawStream(index) or None
    else:
        index, stream = 0, None
    check_status(getattr(descriptors.binding, function)(*buffers.references[: len(tensors)], *params, index, stream))
