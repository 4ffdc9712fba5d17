"""torch.Tensor → cutile_cpp_tensor descriptors, and calls that turn a failed status into CutileCppError."""

from __future__ import annotations

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


def descriptor(tensor: torch.Tensor, name: str = "tensor"):
    """A cutile_cpp_tensor describing `tensor` (which must outlive the call it is passed to)."""
    binding = _library.load()
    if tensor.dtype not in _DTYPE_NAMES:
        raise TypeError(f"{name}: dtype {tensor.dtype} has no cutile_cpp dtype code")
    if tensor.device.type not in _DEVICE_TYPE_NAMES:
        raise ValueError(f"{name}: tensors on {tensor.device} cannot cross the C ABI (CUDA or CPU only)")
    max_dims = binding.constants["CUTILE_CPP_MAX_DIMS"]
    if tensor.dim() > max_dims:
        raise ValueError(f"{name}: {tensor.dim()} dims exceed the C ABI's {max_dims}")
    desc = binding.structs["cutile_cpp_tensor"]()
    desc.data = tensor.data_ptr() or None
    desc.ndim = tensor.dim()
    desc.shape[: tensor.dim()] = tensor.shape
    desc.strides[: tensor.dim()] = tensor.stride()
    desc.dtype = binding.enums["cutile_cpp_dtype"][_DTYPE_NAMES[tensor.dtype]]
    desc.device_type = binding.enums["cutile_cpp_device_type"][_DEVICE_TYPE_NAMES[tensor.device.type]]
    desc.device_id = tensor.device.index or 0
    return desc


def check_status(status: int) -> None:
    if status != 0:
        binding = _library.load()
        raise CutileCppError(
            binding.cutile_cpp_last_error().decode(), status, binding.cutile_cpp_status_name(status).decode()
        )


def call(function: str, tensors: list[torch.Tensor], names: list[str]) -> None:
    """Calls cutile_cpp_<op>(descriptors..., device_id, stream) on the device of the first tensor and its
    current stream."""
    binding = _library.load()
    descriptors = [descriptor(t, n) for t, n in zip(tensors, names)]
    device = tensors[0].device
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        stream = torch.cuda.current_stream(index).cuda_stream or None
    else:
        index, stream = 0, None
    check_status(getattr(binding, function)(*descriptors, index, stream))
