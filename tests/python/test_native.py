"""cutile_cpp._native, the C extension that packs torch.Tensors into descriptors and calls the library's
generic entry: argument errors name the argument; strided, offset, 0-d and empty tensors reach the
kernels as they are (their results are right); absent tensors pass as NULL."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from cutile_cpp import _call


@pytest.fixture(scope="module")
def library():
    return _call.library()


def call(library, op, tensors, names, scalars=(), kinds=b""):
    return library.native.call(library.number(op), tuple(tensors), tuple(names), tuple(scalars), kinds, 0, None)


def test_argument_errors_name_the_argument(library):
    a = torch.zeros(4)
    with pytest.raises(TypeError, match=r"^b: dtype torch.complex64 has no cutile_cpp dtype code$"):
        call(library, "vector_add", [a, a, torch.zeros(4, dtype=torch.complex64)], ["c", "a", "b"])
    with pytest.raises(ValueError, match=r"^a: tensors on meta cannot cross the C ABI \(CUDA or CPU only\)$"):
        call(library, "vector_add", [a, torch.zeros(4, device="meta"), a], ["c", "a", "b"])
    with pytest.raises(ValueError, match=r"^x: 6 dims exceed the C ABI's 5$"):
        call(library, "softmax", [a, torch.zeros(1, 1, 1, 1, 1, 1)], ["y", "x"], (0, 0, 0), b"iii")
    with pytest.raises(ValueError, match=r"^2 tensors, 3 names, 0 parameters and 0 kinds"):
        library.native.call(0, (a, a), ("c", "a", "b"), (), b"", 0, None)
    with pytest.raises(TypeError, match=r"tensors, names and scalars must be tuples and kinds bytes"):
        library.native.call(0, [a], ("c",), (), b"", 0, None)
    with pytest.raises(AttributeError):
        call(library, "vector_add", [a, object(), a], ["c", "a", "b"])
    with pytest.raises(TypeError):
        call(library, "softmax", [a, a], ["y", "x"], ("no", 0, 0), b"iii")


def test_strided_offset_and_transposed_tensors_reach_the_kernel_as_they_are():
    base = torch.randn(4, 6, 8)
    a = base[1:, ::2, 3:]  # an offset and a step
    b = torch.randn(8, 3, 3).permute(1, 2, 0)[:, :, 3:]  # transposed
    torch.testing.assert_close(cutile_cpp.vector_add(a, b.reshape(a.shape)), a + b.reshape(a.shape))
    x = torch.randn(7, 6).t()
    torch.testing.assert_close(cutile_cpp.softmax(x), torch.softmax(x, -1))


def test_zero_dim_and_empty_tensors():
    s = torch.tensor(2.5)
    torch.testing.assert_close(cutile_cpp.vector_add(s, s), s + s)
    empty = torch.zeros(0, 4, dtype=torch.float16)
    assert cutile_cpp.softmax(empty).shape == (0, 4)
