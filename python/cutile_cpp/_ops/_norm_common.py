"""What the normalisation ops share: calls that pass op parameters between the tensors and the device,
and the persistent grid size of the device."""

from __future__ import annotations

import os

import torch

from .. import _library, _tensor


def call(function: str, tensors: list[torch.Tensor], names: list[str], *params) -> None:
    """cutile_cpp_<op>(descriptors..., params..., device_id, stream) on the first tensor's device and its
    current stream."""
    binding = _library.load()
    descriptors = [_tensor.descriptor(t, n) for t, n in zip(tensors, names)]
    device = tensors[0].device
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        stream = torch.cuda.current_stream(index).cuda_stream or None
    else:
        index, stream = 0, None
    _tensor.check_status(getattr(binding, function)(*descriptors, *params, index, stream))


def processors(device: torch.device) -> int:
    """SMs of a CUDA device; hardware threads for the CPU (what the library counts there too)."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return os.cpu_count() or 1


def next_power_of_2(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()
