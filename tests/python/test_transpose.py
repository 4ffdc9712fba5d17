"""transpose: the op and its TileGym face, against the reference on the CPU interpreter (exact), autograd
through its backward op, torch.compile, the library's checks; on the GPU, TileGym-like sizes."""

from __future__ import annotations

import inspect

import pytest
import torch

import cutile_cpp
from support import bench_spec, needs_gpu

reference = bench_spec("transpose").reference
FLOATS = [torch.float32, torch.float16, torch.bfloat16]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (130, 70), (64, 200)])
def test_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    y = cutile_cpp.transpose(x)
    assert y.shape == shape[::-1] and y.is_contiguous()
    assert torch.equal(y, reference(x))
    assert torch.equal(cutile_cpp.transpose(x.t()), reference(x.t()))  # a transposed (strided) input


def test_into_a_given_output_and_autograd():
    x = torch.randn(9, 20, requires_grad=True)
    out = torch.empty(20, 9)
    assert cutile_cpp.transpose(x.detach(), y=out) is out and torch.equal(out, x.detach().t())
    dy = torch.randn(20, 9)
    cutile_cpp.transpose(x).backward(dy)
    assert torch.equal(x.grad, dy.t())


def test_under_torch_compile():
    compiled = torch.compile(lambda t: cutile_cpp.transpose(t) * 2, fullgraph=True)
    x = torch.randn(33, 17)
    assert torch.equal(compiled(x), x.t() * 2)


def test_checks():
    with pytest.raises(ValueError, match=r"cutile_cpp_transpose: x \(f32\[8\] on cpu\): expected 2 dims \(E\[M, N\]\), got 1"):
        cutile_cpp.transpose(torch.randn(8))
    with pytest.raises(ValueError, match=r"cutile_cpp_transpose: y \(f32\[8, 4\] on cpu\): dim 0 must be N = 4 \(N from x's dim 1\), got 8"):
        cutile_cpp.transpose(torch.randn(8, 4), y=torch.empty(8, 4))


def test_tilegym_face():
    tilegym = pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    import tilegym.ops  # noqa: F401
    from tilegym.backend import dispatcher

    import cutile_cpp.tilegym  # noqa: F401

    ours = dispatcher._REGISTRY["transpose"]["cutile-cpp"]
    assert [p.name for p in inspect.signature(ours).parameters.values()] == ["inp", "out", "static_persistent", "kwargs"]
    x = torch.randn(5, 7)
    assert torch.equal(tilegym.ops.transpose(x, backend="cutile-cpp"), x.t())


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("m, n", [(1024, 1024), (4096, 4096), (3000, 5000), (8192, 4096)])
def test_matches_torch_on_the_gpu(dtype, m, n):
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    y = torch.full((n, m), float("nan"), device="cuda", dtype=dtype)
    cutile_cpp.transpose(x, y=y)
    assert torch.equal(y, x.t())
