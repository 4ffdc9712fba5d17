"""cutile_cpp's torch ops, made from the ops' descriptions: argument checks (Python's and the library's),
the round trip torch → C ABI → torch, shapes and views, streams and devices, forward-only behaviour,
torch.library registration."""

from __future__ import annotations

import pytest
import torch

import cutile_cpp
from support import GPU_COUNT, needs_gpu, needs_two_gpus

FLOATS = [torch.float32, torch.float16, torch.bfloat16]
TOLERANCE = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}


def test_softmax_argument_checks():
    with pytest.raises(TypeError, match=r"cutile_cpp.softmax: x must be a torch.Tensor, got list"):
        cutile_cpp.softmax([[1.0]])
    with pytest.raises(TypeError, match=r"cutile_cpp_softmax: x \(i32\[2, 3\] on cpu\): the op supports f32"):
        cutile_cpp.softmax(torch.zeros(2, 3, dtype=torch.int32))
    with pytest.raises(TypeError, match=r"cutile_cpp.softmax: x has dtype torch.float64, which no op takes"):
        cutile_cpp.softmax(torch.zeros(2, 3, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"cutile_cpp_softmax: x \(f32\[2, 3, 4\] on cpu\): expected 2 dims \(E\[M, N\]\), got 3"):
        cutile_cpp.softmax(torch.zeros(2, 3, 4))
    with pytest.raises(TypeError, match=r"cutile_cpp.softmax: use_tma must be a bool, got str"):
        cutile_cpp.softmax(torch.zeros(2, 3), "yes")
    with pytest.raises(TypeError, match=r"cutile_cpp.softmax: y must be a torch.Tensor, got int"):
        cutile_cpp.softmax(torch.zeros(2, 3), y=3)


def test_vector_add_argument_checks():
    a = torch.zeros(8)
    with pytest.raises(ValueError, match=r"cutile_cpp.vector_add: b has shape \(2, 4\), which does not match a's \(8,\)"):
        cutile_cpp.vector_add(a, torch.zeros(2, 4))
    with pytest.raises(ValueError, match=r"cutile_cpp.vector_add: b has shape \(9,\), which does not match a's \(8,\)"):
        cutile_cpp.vector_add(a, torch.zeros(9))
    with pytest.raises(TypeError, match=r"cutile_cpp_vector_add: b \(f16\[8\] on cpu\) and a \(f32\[8\] on cpu\) must have the same dtype"):
        cutile_cpp.vector_add(a, torch.zeros(8, dtype=torch.float16))
    with pytest.raises(ValueError, match=r"cutile_cpp.vector_add: b is on meta; the ops take CUDA or CPU tensors"):
        cutile_cpp.vector_add(a, torch.zeros(8, device="meta"))


def test_outputs_are_allocated_from_the_description():
    """Each output's plan, as the library's checks bind the symbols; a dim that is not a symbol bound by a
    lone input dim asks the library. A wrong plan would fail the call's check of the output."""
    from cutile_cpp import _call, _functions

    plans = {spec["name"]: _functions.Op(spec, n, _call.library()).plans for n, spec in enumerate(_call.library().specs)}
    y, rstd = plans["rms_norm"]  # tensors y, rstd, x, weight
    assert (y.same_as, y.dims) == (2, ((2, 0, 1), (2, 1, 1)))
    assert (rstd.dtype, rstd.dims, rstd.same_as) == (torch.float32, ((2, 0, 1),), None)
    (t,) = plans["transpose"]  # y: E[N, M] of x: E[M, N]
    assert (t.dims, t.same_as) == (((1, 1, 1), (1, 0, 1)), None)
    assert plans["geglu"] == [None]  # N is bound by x's 2*N
    (dx,) = plans["silu_and_mul_backward"]  # dx: E[M, 2*H] of dy: E[M, H]
    assert dx.dims == ((1, 0, 1), (1, 1, 2))
    x = torch.randn(5, 6).t()  # strided: the outputs are still row-major
    out, r = cutile_cpp.rms_norm(x, torch.ones(5), 1e-6)
    assert out.is_contiguous() and out.shape == (6, 5) and (r.dtype, r.shape) == (torch.float32, (6,))
    want = torch.rsqrt(x.double().square().mean(1) + 1e-6)
    torch.testing.assert_close(r.double(), want, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(out.double(), x.double() * want[:, None], rtol=1e-5, atol=1e-5)
    a = torch.randn(3, 4)
    torch.testing.assert_close(cutile_cpp.transpose(a), a.t().contiguous())


def test_shapes_the_library_derives_are_asked_once_per_key():
    """An output shape the description cannot derive from one input (geglu's N, bmm's under transposes) is
    asked of the library once per key of input shapes, dtypes and parameters; another key asks again, and a
    remembered key still meets the call's checks."""
    from cutile_cpp import _call

    asked = []
    library = _call.library()
    native = library.native

    class Counting:
        output_shapes = None

        @staticmethod
        def call(*args):
            return native.call(*args)

    def output_shapes(*args):
        asked.append(args[3])
        return native.output_shapes(*args)

    Counting.output_shapes = staticmethod(output_shapes)
    object.__setattr__(library, "native", Counting)
    try:
        x = torch.randn(3, 8)
        for _ in range(3):
            assert cutile_cpp.geglu(x).shape == (3, 4)
        assert len(asked) == 1
        assert cutile_cpp.geglu(torch.randn(5, 8)).shape == (5, 4) and len(asked) == 2
        assert cutile_cpp.geglu(torch.randn(3, 16)).shape == (3, 8) and len(asked) == 3
        with pytest.raises(ValueError, match=r"cutile_cpp_geglu"):
            cutile_cpp.geglu(x, y=torch.empty(3, 5))  # a given output meets the call's checks
    finally:
        object.__setattr__(library, "native", native)


def test_an_extent_past_i32_is_refused_before_any_allocation():
    huge = torch.zeros(1, dtype=torch.float16).expand(2**31 + 1)  # no memory behind it
    with pytest.raises(ValueError, match=r"cutile_cpp_relu: x \(f16\[2147483649\] on cpu\): extent 2147483649"):
        cutile_cpp.relu(huge)
    with pytest.raises(ValueError, match=r"cutile_cpp_vector_add: a \(f16\[2147483649\] on cpu\): extent 2147483649"):
        cutile_cpp.vector_add(huge, huge)


def test_vector_add_of_any_shape():
    a, b = torch.randn(3, 5, 7), torch.randn(3, 5, 7)
    c = cutile_cpp.vector_add(a, b)
    assert c.shape == (3, 5, 7)
    torch.testing.assert_close(c, a + b)


@needs_gpu
def test_vector_add_on_two_devices():
    with pytest.raises(ValueError, match=r"are on different devices"):
        cutile_cpp.vector_add(torch.zeros(8), torch.zeros(8, device="cuda"))


def test_devices_the_abi_cannot_take():
    with pytest.raises(ValueError, match=r"cutile_cpp.softmax: x is on meta; the ops take CUDA or CPU tensors"):
        cutile_cpp.softmax(torch.zeros(2, 3, device="meta"))


def test_every_op_has_a_signature_and_a_docstring():
    import inspect

    for name in cutile_cpp.ops.__all__:
        function = getattr(cutile_cpp, name)
        assert inspect.signature(function).parameters, name
        assert function.__doc__ and ("Forward-only." in function.__doc__ or "Differentiable" in function.__doc__), name


def test_inputs_requiring_grad_are_detached_with_a_warning():
    x = torch.randn(4, 8, requires_grad=True)
    with pytest.warns(UserWarning, match="cutile_cpp.softmax is forward-only: its inputs are detached"):
        y = cutile_cpp.softmax(x)
    assert not y.requires_grad and y.grad_fn is None


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (5, 9), (3, 100)])
def test_softmax_on_the_cpu_interpreter(dtype, shape):
    x = torch.randn(shape, dtype=dtype) * 3
    y = cutile_cpp.softmax(x)
    torch.testing.assert_close(y, torch.softmax(x.float(), -1).to(dtype), atol=TOLERANCE[dtype], rtol=TOLERANCE[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
def test_vector_add_on_the_cpu_interpreter(dtype):
    base = torch.randn(3000, dtype=dtype)
    a, b = base[::3], base[1::3]  # strided views
    torch.testing.assert_close(cutile_cpp.vector_add(a, b), a + b)


def test_empty_inputs_give_empty_results():
    assert cutile_cpp.softmax(torch.empty(0, 5)).shape == (0, 5)
    assert cutile_cpp.vector_add(torch.empty(0), torch.empty(0)).shape == (0,)


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (256, 9), (7, 1009), (64, 4096), (3, 16384)])
def test_softmax_matches_torch(dtype, shape):
    x = torch.randn(shape, device="cuda", dtype=dtype) * 3
    y = cutile_cpp.softmax(x)
    expected = torch.softmax(x.float(), dim=-1).to(dtype)
    assert y.dtype == dtype and y.shape == x.shape and y.stride() == x.stride()
    torch.testing.assert_close(y, expected, atol=TOLERANCE[dtype], rtol=TOLERANCE[dtype])


@needs_gpu
def test_softmax_of_a_transposed_input_keeps_its_layout():
    x = torch.randn(300, 40, device="cuda").t()  # (40, 300), column-major
    y = cutile_cpp.softmax(x)
    assert y.stride() == x.stride()
    torch.testing.assert_close(y, torch.softmax(x, dim=-1))


@needs_gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 1000, 1024, 100_003])
def test_vector_add_matches_torch(dtype, n):
    a, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
    torch.testing.assert_close(cutile_cpp.vector_add(a, b), a + b)


@needs_gpu
def test_vector_add_of_strided_views():
    base = torch.randn(3000, device="cuda")
    a, b = base[::3], base[1::3]
    torch.testing.assert_close(cutile_cpp.vector_add(a, b), a + b)


@needs_gpu
def test_runs_on_the_current_stream_without_synchronising():
    x = torch.randn(512, 1024, device="cuda")
    cutile_cpp.softmax(x)  # compiles and loads this specialisation first
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(50_000_000)  # keeps the stream busy: a hidden synchronisation would wait here
        y = cutile_cpp.softmax(x)
        assert not stream.query()
    stream.synchronize()
    torch.testing.assert_close(y, torch.softmax(x, dim=-1))


@needs_two_gpus
@pytest.mark.parametrize("device", ["cuda:0", "cuda:1"])
def test_round_trip_on_each_device(device):
    x = torch.randn(33, 777, device=device, dtype=torch.bfloat16)
    y = cutile_cpp.softmax(x)
    assert y.device == x.device
    torch.testing.assert_close(y, torch.softmax(x.float(), -1).bfloat16(), atol=1.6e-2, rtol=1.6e-2)
    a = torch.randn(5000, device=device)
    torch.testing.assert_close(cutile_cpp.vector_add(a, a), a + a)


@needs_two_gpus
def test_device_1_while_device_0_is_current():
    torch.cuda.set_device(0)
    x = torch.randn(16, 100, device="cuda:1")
    torch.testing.assert_close(cutile_cpp.softmax(x), torch.softmax(x, -1))
    assert torch.cuda.current_device() == 0, "an op on cuda:1 changed the caller's current device"


def test_opcheck():
    # torch.library's own consistency checks of the registrations: schema, fake implementation, dispatch,
    # autograd (rms_norm's backward op).
    device = "cuda" if GPU_COUNT else "cpu"
    torch.library.opcheck(torch.ops.cutile_cpp.softmax.default, (torch.randn(8, 50, device=device), 0, 0, 0))
    a = torch.randn(100, device=device)
    torch.library.opcheck(torch.ops.cutile_cpp.vector_add.default, (a, a))
    x, w = torch.randn(6, 40, device=device, requires_grad=True), torch.randn(40, device=device, requires_grad=True)
    torch.library.opcheck(torch.ops.cutile_cpp.rms_norm.default, (x, w, 1e-5, 1.0, 0))


def test_gpu_count_is_known():
    assert GPU_COUNT >= 0
