"""The TileGym backend plugin: `import cutile_cpp.tilegym` makes backend "cutile-cpp" available, with
TileGym's signatures, and tilegym.ops routes to our kernels."""

from __future__ import annotations

import inspect

import pytest
import torch

tilegym = pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
import tilegym.ops  # noqa: E402
import tilegym.ops.activation  # noqa: E402
from tilegym.backend import dispatcher  # noqa: E402

import cutile_cpp  # noqa: E402
import cutile_cpp._call  # noqa: E402
import cutile_cpp._functions  # noqa: E402
import cutile_cpp.tilegym as plugin  # noqa: E402
from support import GPU_COUNT  # noqa: E402


def test_backend_is_available():
    assert plugin.BACKEND == "cutile-cpp"
    assert tilegym.backend.is_backend_available("cutile-cpp")
    previous = tilegym.backend.get_current_backend()
    tilegym.set_backend("cutile-cpp")
    try:
        assert tilegym.backend.get_current_backend() == "cutile-cpp"
    finally:
        tilegym.set_backend(previous)


def test_every_op_with_a_tilegym_face_is_registered():
    faces = {spec["tilegym"]["name"] for spec in cutile_cpp._call.library().specs if spec["tilegym"]["name"]}
    assert faces and faces <= set(plugin.PORTED_OPS)


@pytest.mark.parametrize("op", plugin.PORTED_OPS)
def test_every_ported_op_is_registered_with_cutiles_signature(op):
    assert dispatcher.has_backend_impl(op, "cutile-cpp")
    ours = dispatcher._REGISTRY[op]["cutile-cpp"]
    if not dispatcher.has_backend_impl(op, "cutile"):
        pytest.skip("TileGym's cutile backend is not importable here (cuda.tile missing)")
    assert parameters(ours) == parameters(dispatcher._REGISTRY[op]["cutile"])


def parameters(function):
    """Names, kinds and defaults: what callers see (annotations aside)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_softmax_dispatches_to_our_kernel():
    device = "cuda" if GPU_COUNT else "cpu"
    x = torch.randn(256, 9, device=device)
    for kwargs in ({}, {"use_tma": True}, {"use_chunked": True}, {"use_multi_wave": True}):
        y = tilegym.ops.softmax(x, backend="cutile-cpp", **kwargs)
        assert y.stride() == torch.empty_like(x).stride()
        torch.testing.assert_close(y, torch.softmax(x, dim=-1))


def test_softmax_under_set_backend_counts_our_calls(monkeypatch):
    calls = []
    real = cutile_cpp._functions.Op.launch
    monkeypatch.setattr(
        cutile_cpp._functions.Op, "launch", lambda op, tensors, *rest: calls.append(tensors[1].shape) or real(op, tensors, *rest)
    )
    previous = tilegym.backend.get_current_backend()
    tilegym.set_backend("cutile-cpp")
    try:
        y = tilegym.ops.softmax(torch.randn(7, 1009, device="cuda" if GPU_COUNT else "cpu", dtype=torch.bfloat16))
    finally:
        tilegym.set_backend(previous)
    assert calls == [torch.Size([7, 1009])] and y.dtype == torch.bfloat16


def test_rms_norm_and_its_module_dispatch_to_our_kernels():
    device = "cuda" if GPU_COUNT else "cpu"
    x = torch.randn(3, 5, 40, device=device).requires_grad_()
    w = torch.randn(40, device=device).requires_grad_()
    y = tilegym.ops.rms_norm(x, (40,), w, 1e-5, backend="cutile-cpp", mode="multi_wave_cached")
    x64 = x.detach().double()
    expected = x64 * torch.rsqrt(x64.pow(2).mean(-1, keepdim=True) + 1e-5) * w.double()
    torch.testing.assert_close(y.double(), expected, rtol=1e-5, atol=1e-5)
    y.sum().backward()
    assert x.grad is not None and w.grad is not None
    with pytest.raises(NotImplementedError, match="bias"):
        tilegym.ops.rms_norm(x, (40,), w, 1e-5, bias=w, backend="cutile-cpp")
    gemma = dispatcher._REGISTRY["get_rms_norm_module"]["cutile-cpp"]("gemma3")(40).to(device)
    assert gemma.offset == 1.0 and torch.count_nonzero(gemma.weight) == 0
    torch.testing.assert_close(gemma(x.detach()), gemma.forward_torch(x.detach()), rtol=1e-5, atol=1e-5)
