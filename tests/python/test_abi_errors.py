"""Every status of the C ABI, reached with raw descriptors: each failing check gives its specific code and
message, fails before anything runs, and leaves the process intact."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import pytest
import torch

from support import GPU_COUNT, cpu_only, last_error, needs_gpu, needs_two_gpus, ref


def softmax(abi, y, x, device_id=0, stream=None):
    return abi.cutile_cpp_softmax(ref(y), ref(x), 0, 0, 0, device_id, stream)


def vector_add(abi, c, a, b, device_id=0, stream=None):
    return abi.cutile_cpp_vector_add(ref(c), ref(a), ref(b), device_id, stream)


# A second, disjoint address for an input, so that only the check under test fails.
X = 0x100000


def test_null_descriptor(abi, status, desc):
    assert softmax(abi, None, desc([4, 8], data=X)) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_softmax: y: the descriptor is null"
    assert vector_add(abi, desc([8]), desc([8], data=X), None) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_vector_add: b: the descriptor is null"


def test_null_data_with_elements(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 8], data=0)) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_softmax: x: data is null but the tensor has 32 elements"


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(ndim=-1), "x: ndim -1 is outside 0..5"),
        (dict(ndim=6), "x: ndim 6 is outside 0..5"),
        (dict(dtype=99), "x: dtype code 99 is not a cutile_cpp_dtype"),
        (dict(device_type=7), "x: device type 7 is neither CPU (1) nor CUDA (2)"),
        (dict(device_id=-2), "x: CUDA device id -2 is negative"),
        (dict(data=X + 2), "x: data is not aligned to its 4-byte f32 elements"),
    ],
)
def test_invalid_descriptor_fields(abi, status, desc, change, message):
    x = desc([4, 8], data=X)
    for field, value in change.items():
        setattr(x, field, value)
    assert softmax(abi, desc([4, 8]), x) == status.INVALID_DESCRIPTOR
    assert last_error(abi) == "cutile_cpp_softmax: " + message


def test_invalid_extents_and_strides(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, -8], data=X)) == status.INVALID_DESCRIPTOR
    assert last_error(abi) == "cutile_cpp_softmax: x: extent -8 of dim 1 is negative"
    assert softmax(abi, desc([4, 8]), desc([4, 8], strides=[8, -1], data=X)) == status.INVALID_DESCRIPTOR
    assert last_error(abi) == "cutile_cpp_softmax: x: stride -1 of dim 1 is negative"
    assert softmax(abi, desc([4, 8]), desc([2**62, 8], data=X)) == status.INVALID_DESCRIPTOR
    assert "cutile_cpp_softmax: x: " in last_error(abi) and "int64" in last_error(abi)


def test_cpu_descriptor_with_a_device_id(abi, status, desc):
    assert softmax(abi, desc([4, 8], device="CPU"), desc([4, 8], device="CPU", device_id=1, data=X)) == (
        status.INVALID_DESCRIPTOR
    )
    assert last_error(abi) == "cutile_cpp_softmax: x: CPU device id 1 is not 0"


def test_negative_device_id_argument(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 8], data=X), device_id=-1) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_softmax: device_id -1 is negative"


def test_device_mismatch(abi, status, desc):
    assert softmax(abi, desc([4, 8], device="CPU"), desc([4, 8], data=X)) == status.DEVICE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_softmax: x (f32[4, 8] on cuda:0) and y (f32[4, 8] on cpu) are on different devices"
    )
    assert softmax(abi, desc([4, 8]), desc([4, 8], device_id=1, data=X)) == status.DEVICE_MISMATCH
    assert last_error(abi) == "cutile_cpp_softmax: x (f32[4, 8] on cuda:1) is not on the call's device cuda:0"


def test_unsupported_dtype(abi, status, desc):
    assert softmax(abi, desc([4, 8], "I32"), desc([4, 8], "I32", data=X)) == status.UNSUPPORTED_DTYPE
    assert last_error(abi) == "cutile_cpp_softmax: x (i32[4, 8] on cuda:0): the op supports f32, f16, bf16"
    assert vector_add(abi, desc([8], "U8"), desc([8], "U8", data=X), desc([8], "U8", data=2 * X)) == (
        status.UNSUPPORTED_DTYPE
    )


def test_dtype_mismatch(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 8], "BF16", data=X)) == status.DTYPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_softmax: y (f32[4, 8] on cuda:0) and x (bf16[4, 8] on cuda:0) must have the same dtype"
    )


def test_rank_mismatch(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([32], data=X)) == status.RANK_MISMATCH
    assert last_error(abi) == "cutile_cpp_softmax: x (f32[32] on cuda:0): expected 2 dims (E[M, N]), got 1"
    assert vector_add(abi, desc([8]), desc([8], data=X), desc([2, 4], data=2 * X)) == status.RANK_MISMATCH


def test_shape_mismatch(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 16], data=X)) == status.SHAPE_MISMATCH
    assert last_error(abi) == (
        "cutile_cpp_softmax: y (f32[4, 8] on cuda:0): dim 1 must be N = 16 (N from x's dim 1), got 8"
    )
    assert vector_add(abi, desc([8]), desc([8], data=X), desc([9], data=2 * X)) == status.SHAPE_MISMATCH


def test_unsupported_shape(abi, status, desc):
    n = 2**31
    assert vector_add(abi, desc([n]), desc([n], data=2**40), desc([n], data=2**41)) == status.UNSUPPORTED_SHAPE
    assert "exceeds the kernels' i32 indices" in last_error(abi)


def test_output_aliasing_an_input(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 8])) == status.ALIASING
    assert last_error(abi) == (
        "cutile_cpp_softmax: output y (f32[4, 8] on cuda:0) overlaps x (f32[4, 8] on cuda:0) in memory: "
        "an output may not alias another argument"
    )
    # Partial overlap: c starts inside b.
    assert vector_add(abi, desc([8], data=X + 16), desc([8]), desc([8], data=X)) == status.ALIASING
    assert "output c (f32[8] on cuda:0) overlaps b" in last_error(abi)


def test_output_overlapping_itself(abi, status, desc):
    assert softmax(abi, desc([4, 8], strides=[0, 1]), desc([4, 8], data=X)) == status.ALIASING
    assert last_error(abi) == (
        "cutile_cpp_softmax: y (f32[4, 8] on cuda:0): an output's elements overlap each other (strides [0, 1])"
    )


def test_inputs_may_alias_each_other(abi, status, desc):
    # Shared read-only inputs are fine; the call then gets as far as the device.
    d = dict(device_id=64)
    result = vector_add(abi, desc([8], **d), desc([8], data=X, **d), desc([8], data=X, **d), device_id=64)
    assert result == status.DEVICE_UNAVAILABLE


def test_empty_tensors_succeed_without_running(abi, status, desc):
    assert softmax(abi, desc([0, 8], data=0), desc([0, 8], data=0)) == status.OK
    assert last_error(abi) == ""
    assert vector_add(abi, desc([0], device="CPU", data=0), desc([0], device="CPU"), desc([0], device="CPU")) == (
        status.OK
    )


def test_host_tensors_take_no_stream(abi, status, desc):
    result = softmax(abi, desc([4, 8], device="CPU"), desc([4, 8], device="CPU", data=X), stream=0x1234)
    assert result == status.INVALID_STREAM
    assert last_error(abi) == (
        "cutile_cpp_softmax: host tensors run on the CPU interpreter, synchronously: pass a null stream"
    )


def test_host_tensors_run_on_the_interpreter(abi, status, desc):
    x, y = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]), torch.empty(2, 3)
    assert softmax(abi, desc([2, 3], device="CPU", data=y.data_ptr()), desc([2, 3], device="CPU", data=x.data_ptr())) == (
        status.OK
    )
    torch.testing.assert_close(y, torch.softmax(x, -1))


def test_missing_device(abi, status, desc):
    assert softmax(abi, desc([4, 8], device_id=64), desc([4, 8], device_id=64, data=X), device_id=64) == (
        status.DEVICE_UNAVAILABLE
    )
    assert last_error(abi).startswith("cutile_cpp_softmax: cuda:64 is unavailable: ")


@cpu_only
def test_no_driver(abi, status, desc):
    assert softmax(abi, desc([4, 8]), desc([4, 8], data=X)) == status.DEVICE_UNAVAILABLE
    assert last_error(abi).startswith("cutile_cpp_softmax: cuda:0 is unavailable: ")


@needs_gpu
def test_host_memory_passed_as_device_memory(abi, status, desc):
    host = (ctypes.c_float * 32)()
    c, b = torch.empty(32, device="cuda"), torch.zeros(32, device="cuda")
    result = vector_add(abi, desc([32], data=c.data_ptr()), desc([32], data=ctypes.addressof(host)),
                        desc([32], data=b.data_ptr()))
    assert result == status.INVALID_POINTER
    assert "cutile_cpp_vector_add: a (f32[32] on cuda:0): cannot borrow" in last_error(abi)


@needs_two_gpus
def test_stream_of_another_device(abi, status, desc):
    y, x = torch.empty(4, 8, device="cuda:0"), torch.randn(4, 8, device="cuda:0")
    other = torch.cuda.Stream(device=1)
    result = softmax(abi, desc([4, 8], data=y.data_ptr()), desc([4, 8], data=x.data_ptr()), 0, other.cuda_stream)
    assert result == status.INVALID_STREAM
    assert "belongs to another context" in last_error(abi)


@needs_gpu
def test_compiler_failure_is_a_runtime_error(tmp_path):
    # A specialisation nothing has compiled yet (fresh cache, f16 of an odd length) with no tileiras.
    script = (
        "import torch, cutile_cpp\n"
        "a = torch.randn(1001, device='cuda', dtype=torch.float16)\n"
        "try:\n"
        "    cutile_cpp.vector_add(a, a)\n"
        "except cutile_cpp.CutileCppError as e:\n"
        "    print(e.status_name)\n"
    )
    env = dict(os.environ, CUTILE_TILEIRAS="/nonexistent/tileiras", CUTILE_CACHE_DIR=str(tmp_path),
               CUTILE_TOOLCHAIN_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "CUTILE_CPP_ERROR_RUNTIME", done.stderr


def test_last_error_is_per_thread(abi, status, desc):
    import threading

    assert softmax(abi, None, desc([4, 8])) == status.NULL_POINTER
    seen = []
    thread = threading.Thread(target=lambda: seen.append(last_error(abi)))
    thread.start()
    thread.join()
    assert seen == [""]
    assert last_error(abi) == "cutile_cpp_softmax: y: the descriptor is null"


def test_success_clears_the_last_error(abi, status, desc):
    assert softmax(abi, None, desc([4, 8])) == status.NULL_POINTER
    assert softmax(abi, desc([0, 8], data=0), desc([0, 8], data=0)) == status.OK
    assert last_error(abi) == ""


def test_ops_by_number(abi, status, desc):
    import json

    document = json.loads(abi.cutile_cpp_op_specs().decode())
    assert document["abi_version"] == abi.constants["CUTILE_CPP_ABI_VERSION"]
    names = [op["name"] for op in document["ops"]]
    assert names == sorted(names) and "softmax" in names
    number = abi.cutile_cpp_op_number(b"softmax")
    assert number == names.index("softmax") and abi.cutile_cpp_op_number(b"no_such_op") == -1
    tensor = abi.structs["cutile_cpp_tensor"]
    scalar = abi.structs["cutile_cpp_scalar"]
    pointers = (ctypes.POINTER(tensor) * 2)(ctypes.pointer(desc([4, 8])), ctypes.pointer(desc([4, 8], data=X)))
    scalars = (scalar * 3)()
    assert abi.cutile_cpp_call(999, pointers, None, 2, scalars, 3, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_call: op 999 is no op's number"
    assert abi.cutile_cpp_call(number, pointers, None, 1, scalars, 3, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_softmax: takes 2 tensors, got 1"
    assert abi.cutile_cpp_call(number, pointers, None, 2, scalars, 2, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_softmax: takes 3 parameters, got 2"
    scalars[0].integer = 3
    assert abi.cutile_cpp_call(number, pointers, None, 2, scalars, 3, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_softmax: use_tma is 3; a flag is 0 or 1"


def test_output_shapes_follow_from_the_inputs(abi, status, desc):
    tensor = abi.structs["cutile_cpp_tensor"]
    number = abi.cutile_cpp_op_number(b"rms_norm")
    x, w = desc([6, 40], dtype="BF16", data=0), desc([40], dtype="BF16", data=0)
    pointers = (ctypes.POINTER(tensor) * 4)(None, None, ctypes.pointer(x), ctypes.pointer(w))
    scalars = (abi.structs["cutile_cpp_scalar"] * 3)()
    scalars[0].real = 1e-6
    outputs = (tensor * 2)()
    assert abi.cutile_cpp_output_shapes(number, pointers, None, 4, scalars, 3, outputs, 2) == status.OK
    assert (outputs[0].ndim, list(outputs[0].shape[:2]), list(outputs[0].strides[:2])) == (2, [6, 40], [40, 1])
    assert outputs[0].dtype == abi.enums["cutile_cpp_dtype"]["CUTILE_CPP_BF16"]
    assert (outputs[1].ndim, outputs[1].shape[0]) == (1, 6)
    assert outputs[1].dtype == abi.enums["cutile_cpp_dtype"]["CUTILE_CPP_F32"]
    pointers[3] = ctypes.pointer(desc([41], dtype="BF16", data=0))
    assert abi.cutile_cpp_output_shapes(number, pointers, None, 4, scalars, 3, outputs, 2) == status.SHAPE_MISMATCH
    assert last_error(abi) == "cutile_cpp_rms_norm: weight (bf16[41] on cuda:0): dim 0 must be N = 40 (N from x's dim 1), got 41"


def test_status_names_match_the_header(abi):
    for name, value in abi.enums["cutile_cpp_status"].items():
        assert abi.cutile_cpp_status_name(value).decode() == name
    assert abi.cutile_cpp_status_name(1000).decode() == "unknown status"


def test_machine_under_test():
    # Records which of the GPU-only cases above ran: on a CPU machine they skip with their reason.
    assert GPU_COUNT == (torch.cuda.device_count() if torch.cuda.is_available() else 0)
