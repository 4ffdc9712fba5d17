"""torch.Tensor → cutile_cpp_tensor descriptors, and calls that turn a failed status into CutileCppError."""

from __future__ import annotations

import ctypes
import struct

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
_DEVICE_TYPE_NAMES = {"cpu": "CUTILE_CPP_DEVICE_CPU", "cuda": "CUTILE_CPP_DEVICE_CUDA"}


_STRUCT_CODES = {ctypes.c_void_p: "P", ctypes.c_int64: "q", ctypes.c_int32: "i"}


class _DescriptorMaker:
    """Packs descriptors with one struct.pack (a ctypes field at a time costs several times more per
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
        self.max_dims = binding.constants["CUTILE_CPP_MAX_DIMS"]
        dtypes = binding.enums["cutile_cpp_dtype"]
        self.dtype_codes = {dtype: dtypes[name] for dtype, name in _DTYPE_NAMES.items()}
        device_types = binding.enums["cutile_cpp_device_type"]
        self.device_codes = {kind: device_types[name] for kind, name in _DEVICE_TYPE_NAMES.items()}


_maker: _DescriptorMaker | None = None


def descriptor(tensor: torch.Tensor, name: str = "tensor"):
    """A cutile_cpp_tensor describing `tensor` (which must outlive the call it is passed to)."""
    global _maker
    if _maker is None:
        _maker = _DescriptorMaker(_library.load())
    maker = _maker
    dtype = maker.dtype_codes.get(tensor.dtype)
    if dtype is None:
        raise TypeError(f"{name}: dtype {tensor.dtype} has no cutile_cpp dtype code")
    device = tensor.device
    device_type = maker.device_codes.get(device.type)
    if device_type is None:
        raise ValueError(f"{name}: tensors on {device} cannot cross the C ABI (CUDA or CPU only)")
    ndim = tensor.dim()
    if ndim > maker.max_dims:
        raise ValueError(f"{name}: {ndim} dims exceed the C ABI's {maker.max_dims}")
    padding = (0,) * (maker.max_dims - ndim)
    return maker.type.from_buffer_copy(
        maker.packer.pack(tensor.data_ptr(), *tensor.shape, *padding, *tensor.stride(), *padding, ndim, dtype,
                          device_type, device.index or 0)
    )


def check_status(status: int) -> None:
    if status != 0:
        binding = _library.load()
        raise CutileCppError(
            binding.cutile_cpp_last_error().decode(), status, binding.cutile_cpp_status_name(status).decode()
        )


def call(function: str, tensors: list[torch.Tensor], names: list[str], params: tuple = ()) -> None:
    """Calls cutile_cpp_<op>(descriptors..., params..., device_id, stream) on the device of the first
    tensor and its current stream."""
    binding = _library.load()
    descriptors = [descriptor(t, n) for t, n in zip(tensors, names)]
    device = tensors[0].device
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        stream = torch.cuda.current_stream(index).cuda_stream or None
    else:
        index, stream = 0, None
    check_status(getattr(binding, function)(*descriptors, *params, index, stream))
