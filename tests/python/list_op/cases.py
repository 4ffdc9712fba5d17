"""The cases of test_lists.py, run with CUTILE_CPP_LIBRARY naming libcutile_cpp_list_test.so, whose one op
is scale_groups: ys[g] = factor * xs[g], both lists of (M_g, N_g) tensors, N_g <= 64. Not collected by the
python tier itself (its library has no scale_groups)."""

from __future__ import annotations

import ctypes
import os

import pytest
import torch

import cutile_cpp
from cutile_cpp import CutileCppTypeError, CutileCppValueError
from support import last_error

RAGGED = [(5, 3), (1, 64), (17, 40)]


@pytest.fixture(autouse=True, scope="module")
def the_test_library():
    assert os.environ.get("CUTILE_CPP_LIBRARY", "").endswith("libcutile_cpp_list_test.so")


def groups(shapes=RAGGED, dtype=torch.float32):
    return [torch.randn(m, n).to(dtype) for m, n in shapes]


def test_a_listed_input_gives_a_listed_output_per_element():
    xs = groups()
    ys = cutile_cpp.scale_groups(xs, 3.0)
    assert isinstance(ys, list) and [y.shape for y in ys] == [x.shape for x in xs]
    for x, y in zip(xs, ys):
        torch.testing.assert_close(y, 3.0 * x)
    halves = cutile_cpp.scale_groups(tuple(groups(dtype=torch.float16)), factor=0.5)
    assert all(y.dtype == torch.float16 for y in halves)


def test_long_lists_pass_every_element():
    # More descriptors than the native extension holds inline (16): it allocates them, for the call and for
    # the output shapes (which the fake implementation asks the library for).
    shapes = [(1 + g % 3, 1 + g) for g in range(20)]
    xs = groups(shapes)
    for x, y in zip(xs, cutile_cpp.scale_groups(xs, 0.5)):
        torch.testing.assert_close(y, 0.5 * x)
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        fakes = torch.ops.cutile_cpp.scale_groups([torch.empty(m, n) for m, n in shapes])
        assert [tuple(f.shape) for f in fakes] == shapes


def test_given_outputs_are_written_and_returned():
    xs = groups()
    given = [torch.full_like(x, float("nan")) for x in xs]
    ys = cutile_cpp.scale_groups(xs, ys=given)
    assert all(y is g for y, g in zip(ys, given))
    for x, y in zip(xs, ys):
        torch.testing.assert_close(y, 2.0 * x)


def test_the_checks_name_the_list_and_the_element():
    xs = groups()
    with pytest.raises(ValueError, match=r"^cutile_cpp.scale_groups: xs is an empty list: a list holds at least one tensor$"):
        cutile_cpp.scale_groups([])
    with pytest.raises(TypeError, match=r"^cutile_cpp.scale_groups: xs must be a list of torch.Tensors, got Tensor$"):
        cutile_cpp.scale_groups(xs[0])
    with pytest.raises(TypeError, match=r"^cutile_cpp.scale_groups: xs\[1\] must be a torch.Tensor, got int$"):
        cutile_cpp.scale_groups([xs[0], 3])
    with pytest.raises(CutileCppTypeError, match=r"xs\[1\] \(bf16\[1, 64\] on cpu\) and xs\[0\] \(f32\[5, 3\] on cpu\) "
                                                 r"must have the same dtype"):
        cutile_cpp.scale_groups([xs[0], xs[1].bfloat16()])
    with pytest.raises(CutileCppValueError, match=r"requires N <= 64 \(N = 65 from xs\[1\]'s dim 1\)") as error:
        cutile_cpp.scale_groups(groups([(2, 3), (2, 65)]))
    assert error.value.status_name == "CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE"
    wrong = [torch.empty_like(x) for x in xs]
    wrong[2] = torch.empty(17, 41)
    with pytest.raises(CutileCppValueError, match=r"ys\[2\] \(f32\[17, 41\] on cpu\): dim 1 must be N = 40 "
                                                  r"\(N from xs\[2\]'s dim 1\), got 41"):
        cutile_cpp.scale_groups(xs, ys=wrong)
    with pytest.raises(CutileCppValueError, match=r"ys has length 2, xs has length 3"):
        cutile_cpp.scale_groups(xs, ys=wrong[:2])
    with pytest.raises(CutileCppValueError, match=r"output ys\[1\] \(f32\[1, 64\] on cpu\) overlaps xs\[1\]") as error:
        cutile_cpp.scale_groups(xs, ys=[torch.empty_like(xs[0]), xs[1], torch.empty_like(xs[2])])
    assert error.value.status_name == "CUTILE_CPP_ERROR_ALIASING"


def test_the_torch_library_op_takes_and_returns_tensor_lists():
    schema = str(torch.ops.cutile_cpp.scale_groups.default._schema)
    assert schema == "cutile_cpp::scale_groups(Tensor[] xs, float factor=2.) -> Tensor[]"
    xs = groups()
    ys = torch.ops.cutile_cpp.scale_groups(xs, 4.0)
    for x, y in zip(xs, ys):
        torch.testing.assert_close(y, 4.0 * x)
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        fakes = torch.ops.cutile_cpp.scale_groups([torch.empty(m, n, dtype=torch.bfloat16) for m, n in RAGGED])
        assert [tuple(f.shape) for f in fakes] == RAGGED and all(f.dtype == torch.bfloat16 for f in fakes)


def test_compile_traces_through_the_list_op():
    graphs = []

    def backend(graph_module, example_inputs):
        graphs.append(graph_module)
        return graph_module.forward

    def model(a, b):
        ys = cutile_cpp.scale_groups([a + 1.0, b], 2.0)
        return ys[0].sum() + ys[1].sum()

    a, b = torch.randn(3, 8), torch.randn(2, 5)
    result = torch.compile(model, fullgraph=True, backend=backend)(a, b)
    torch.testing.assert_close(result, (2.0 * (a + 1.0)).sum() + (2.0 * b).sum())
    assert len(graphs) == 1
    assert "cutile_cpp.scale_groups" in [str(n.target).removesuffix(".default") for n in graphs[0].graph.nodes]


def test_the_tilegym_face_returns_the_list():
    pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import cutile_cpp.tilegym as face

    xs = groups()
    ys = face.scale_groups(group_x=xs, factor=3.0, unused_keyword=1)
    assert isinstance(ys, list)
    for x, y in zip(xs, ys):
        torch.testing.assert_close(y, 3.0 * x)


def test_the_generic_entry_with_bad_counts(abi, status, desc):
    number = abi.cutile_cpp_op_number(b"scale_groups")
    tensor = abi.structs["cutile_cpp_tensor"]
    xs = (tensor * 2)(desc([2, 4], device="CPU", data=0x10000), desc([3, 4], device="CPU", data=0x20000))
    ys = (tensor * 2)(desc([2, 4], device="CPU", data=0x30000), desc([3, 4], device="CPU", data=0x40000))
    as_pointer = lambda array: ctypes.cast(array, ctypes.POINTER(tensor))  # noqa: E731
    pointers = (ctypes.POINTER(tensor) * 2)(as_pointer(ys), as_pointer(xs))
    scalars = (abi.structs["cutile_cpp_scalar"] * 1)()
    scalars[0].real = 2.0
    counts = (ctypes.c_int64 * 2)(2, 2)
    assert abi.cutile_cpp_call(number, pointers, None, 2, scalars, 1, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_scale_groups: ys is a list, but no counts are given"
    counts[1] = -3
    assert abi.cutile_cpp_call(number, pointers, counts, 2, scalars, 1, 0, None) == status.INVALID_ARGUMENT
    assert last_error(abi) == "cutile_cpp_scale_groups: xs: the count -3 of the list is outside 0..2147483647"
    counts[1] = 2
    pointers[1] = None
    assert abi.cutile_cpp_call(number, pointers, counts, 2, scalars, 1, 0, None) == status.NULL_POINTER
    assert last_error(abi) == "cutile_cpp_scale_groups: xs: the array of 2 descriptors is null"
    outputs = (tensor * 2)()
    pointers[1] = as_pointer(xs)
    assert abi.cutile_cpp_output_shapes(number, pointers, counts, 2, scalars, 1, outputs, 2) == status.OK
    assert [list(o.shape[:2]) for o in outputs] == [[2, 4], [3, 4]]
