"""torch.Tensor → cutile_cpp_tensor descriptors, and calls that turn a failed status into CutileCppError."""

from __future__ import annotations

import ctypes
import struct
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


_STRUCT_CODES = {ctypes.c_void_p: "P", ctypes.c_int64: "q", ctypes.c_int32: "i"}


class _DescriptorMaker:
    """Packs descriptors with one struct.pack_into (a ctypes field at a time costs several times more per
    launch). The packing format is derived from the ctypes structure the header binding generated."""

    def __init__(self, binding):
        self.type = binding.structs["cutile_cpp_tensor"]
        codes = []
        for _, field in self.type._fields_:
            if issubclass(field, ctypes.Array):
                codes.append(f"{field._length_}{_STRUCT_CODES[field._type_]}")
            else:
                codes.append(_STRUCT_CODES[field])
        self.packer = struct.Struct("@" + "".join(codes))
        if self.packer.size != ctypes.sizeof(self.type):
            raise CutileCppError(f"cutile_cpp_tensor packs to {self.packer.size} bytes, ctypes says {ctypes.sizeof(self.type)}")
        self.binding = binding
        self.size = self.packer.size
        self.max_dims = binding.constants["CUTILE_CPP_MAX_DIMS"]
        self.padding = [(0,) * (self.max_dims - ndim) for ndim in range(self.max_dims + 1)]
        dtypes = binding.enums["cutile_cpp_dtype"]
        self.dtype_codes = {dtype: dtypes[name] for dtype, name in _DTYPE_NAMES.items()}
        device_types = binding.enums["cutile_cpp_device_type"]
        self.cuda_code = device_types["CUTILE_CPP_DEVICE_CUDA"]
        self.cpu_code = device_types["CUTILE_CPP_DEVICE_CPU"]


_maker: _DescriptorMaker | None = None


def _descriptor_maker() -> _DescriptorMaker:
    global _maker
    if _maker is None:
        _maker = _DescriptorMaker(_library.load())
    return _maker


def _pack_into(maker: _DescriptorMaker, buffer, offset: int, tensor: torch.Tensor, name: str) -> None:
    """Writes the cutile_cpp_tensor describing `tensor` into `buffer` at `offset`."""
    dtype = maker.dtype_codes.get(tensor.dtype)
    if dtype is None:
        raise TypeError(f"{name}: dtype {tensor.dtype} has no cutile_cpp dtype code")
    # is_cuda / get_device() rather than tensor.device, which costs more than the rest of the packing.
    if tensor.is_cuda:
        device_type, device_id = maker.cuda_code, tensor.get_device()
    elif tensor.is_cpu:
        device_type, device_id = maker.cpu_code, 0
    else:
        raise ValueError(f"{name}: tensors on {tensor.device} cannot cross the C ABI (CUDA or CPU only)")
    ndim = tensor.dim()
    if ndim > maker.max_dims:
        raise ValueError(f"{name}: {ndim} dims exceed the C ABI's {maker.max_dims}")
    padding = maker.padding[ndim]
    maker.packer.pack_into(buffer, offset, tensor.data_ptr(), *tensor.shape, *padding, *tensor.stride(), *padding, ndim,
                           dtype, device_type, device_id)


def descriptor(tensor: torch.Tensor, name: str = "tensor"):
    """A cutile_cpp_tensor describing `tensor` (which must outlive the call it is passed to)."""
    maker = _descriptor_maker()
    result = maker.type()
    _pack_into(maker, result, 0, tensor, name)
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
    maker = _descriptor_maker()
    buffers = _buffers
    if len(buffers.references) < len(tensors):
        buffers.array = (maker.type * max(len(tensors), 8))()
        buffers.references = list(buffers.array)  # element views of the array's memory, passed by reference
    for i, (tensor, name) in enumerate(zip(tensors, names)):
        _pack_into(maker, buffers.array, i * maker.size, tensor, name)
    first = tensors[0]
    if first.is_cuda:
        index = first.get_device()
        stream = torch._C._cuda_getCurrentRawStream(index) or None
    else:
        index, stream = 0, None
    check_status(getattr(maker.binding, function)(*buffers.references[: len(tensors)], *params, index, stream))
