"""cutile_cpp._descriptors, the C extension that packs torch.Tensors into cutile_cpp_tensor descriptors:
every field against the tensor it describes, and each argument error with the argument's name."""

from __future__ import annotations

import pytest
import torch

from cutile_cpp import _tensor


def fields(d) -> dict:
    return {
        "data": d.data or 0,
        "shape": list(d.shape[: d.ndim]),
        "strides": list(d.strides[: d.ndim]),
        "ndim": d.ndim,
        "dtype": d.dtype,
        "device_type": d.device_type,
        "device_id": d.device_id,
    }


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.randn(3, 5),
        lambda: torch.randn(7, 6).t(),  # transposed strides
        lambda: torch.randn(4, 6, 8)[1:, ::2, 3:],  # offset, step
        lambda: torch.tensor(2.5),  # 0-d
        lambda: torch.randn(2, 1, 3, 1, 2).to(torch.bfloat16),  # CUTILE_CPP_MAX_DIMS dims
        lambda: torch.randint(0, 9, (5,), dtype=torch.int64),
        lambda: torch.zeros(0, 4, dtype=torch.float16),
    ],
)
def test_every_field_describes_the_tensor(abi, make):
    t = make()
    d = _tensor.descriptor(t, "t")
    dtypes = abi.enums["cutile_cpp_dtype"]
    code = {torch.float32: "CUTILE_CPP_F32", torch.bfloat16: "CUTILE_CPP_BF16", torch.int64: "CUTILE_CPP_I64",
            torch.float16: "CUTILE_CPP_F16"}[t.dtype]
    assert fields(d) == {
        "data": t.data_ptr(),
        "shape": list(t.shape),
        "strides": list(t.stride()),
        "ndim": t.dim(),
        "dtype": dtypes[code],
        "device_type": abi.enums["cutile_cpp_device_type"]["CUTILE_CPP_DEVICE_CPU"],
        "device_id": 0,
    }


def test_several_descriptors_are_packed_in_place(abi):
    tensors = [torch.randn(4, 9), torch.randn(2, 3, 5).transpose(0, 2), torch.randn(11)]
    array = (abi.structs["cutile_cpp_tensor"] * 3)()
    _tensor._descriptors_of_library().packer.pack(array, tensors, ["a", "b", "c"])
    for d, t in zip(array, tensors):
        assert (d.data, list(d.shape[: d.ndim]), list(d.strides[: d.ndim])) == (t.data_ptr(), list(t.shape), list(t.stride()))


def test_argument_errors_name_the_argument(abi):
    packer = _tensor._descriptors_of_library().packer
    with pytest.raises(TypeError, match=r"^w: dtype torch.complex64 has no cutile_cpp dtype code$"):
        _tensor.descriptor(torch.zeros(2, dtype=torch.complex64), "w")
    with pytest.raises(ValueError, match=r"^x: tensors on meta cannot cross the C ABI \(CUDA or CPU only\)$"):
        _tensor.descriptor(torch.zeros(2, 3, device="meta"), "x")
    with pytest.raises(ValueError, match=r"^y: 6 dims exceed the C ABI's 5$"):
        _tensor.descriptor(torch.zeros(1, 1, 1, 1, 1, 1), "y")
    array = (abi.structs["cutile_cpp_tensor"] * 1)()
    with pytest.raises(ValueError, match=r"^pack\(\): the buffer holds 104 bytes, 2 descriptors need 208$"):
        packer.pack(array, [torch.zeros(1), torch.zeros(1)], ["a", "b"])
    with pytest.raises(ValueError, match=r"^pack\(\): 1 tensors but 2 names$"):
        packer.pack(array, [torch.zeros(1)], ["a", "b"])
    with pytest.raises(AttributeError):
        packer.pack(array, [object()], ["z"])
    with pytest.raises(BufferError, match="not writable"):
        packer.pack(bytes(104), [torch.zeros(1)], ["a"])
