"""Host cost of calling a cached op from Python, on the GPU: cutile_cpp.vector_add (float32, 4096 elements),
cutile_cpp.softmax, cutile_cpp.rms_norm and cutile_cpp.layer_norm_legacy (when it is an op) at small
sizes, the bare C ABI call with descriptors made once, and torch.add for scale; then the pieces of
cutile_cpp.vector_add and of bmm (2x64x64x64 f16, also through TileGym's entry with each backend) alone
(argument checks and views, parameters, output allocation, current-stream lookup, the native call) and
each op's Python alone (its native call returning at once) to show where its time goes. Per case: batches of calls timed with
time.perf_counter, the stream drained between batches outside the timing; the median per-call time of the
batches is reported. The whole calls are measured in three rounds, each against torch.add in the same round,
because a host's speed moves between rounds. Prints one JSON object (and writes it to --json FILE).
    python3 bench/launch_overhead.py [--json FILE]
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import torch  # noqa: E402

import cutile_cpp  # noqa: E402
from cutile_cpp import _call, _functions  # noqa: E402

BATCH = 200
BATCHES = 200
ROUNDS = 3


def per_call_us(call) -> float:
    stream = torch.cuda.current_stream()
    for _ in range(BATCH):  # warm-up: the first call compiles or reads the cubin cache
        call()
    stream.synchronize()
    times = []
    for _ in range(BATCHES):
        start = time.perf_counter()
        for _ in range(BATCH):
            call()
        times.append((time.perf_counter() - start) / BATCH * 1e6)
        stream.synchronize()
    return statistics.median(times)


class _ReturnsAtOnce:
    """A native module whose call does nothing: what is left of an op's call is its Python."""

    def __init__(self, native):
        self.output_shapes = native.output_shapes

    @staticmethod
    def call(*_):
        return 0


def descriptor(abi, t: torch.Tensor):
    """A cutile_cpp_tensor of `t`, made once in Python (the bare call's)."""
    d = abi.structs["cutile_cpp_tensor"]()
    d.data, d.ndim = t.data_ptr(), t.dim()
    d.shape[: t.dim()], d.strides[: t.dim()] = list(t.shape), list(t.stride())
    d.dtype = abi.enums["cutile_cpp_dtype"]["CUTILE_CPP_F32"]
    d.device_type, d.device_id = abi.enums["cutile_cpp_device_type"]["CUTILE_CPP_DEVICE_CUDA"], t.get_device()
    return d


def through_tilegym(x: torch.Tensor, w: torch.Tensor) -> dict:
    """Host time per call of TileGym's entries (tilegym.ops.*) with each backend, as a TileGym user calls
    them; cuTile Python's only where it compiles here (tileiras on PATH)."""
    try:
        import tilegym
        import cutile_cpp.tilegym  # noqa: F401 (registers the backend)
    except ImportError as e:
        return {"skipped": f"tilegym is not importable: {e}"}
    n = x.shape[-1]
    q, k = (torch.randn(2, 64, 64, device="cuda", dtype=torch.float16) for _ in range(2))
    calls = {
        "softmax": lambda backend: tilegym.ops.softmax(x, backend=backend),
        "rms_norm": lambda backend: tilegym.ops.rms_norm(x, (n,), w, 1e-6, backend=backend),
        "layer_norm_legacy": lambda backend: tilegym.ops.layer_norm_legacy(x, (n,), w, w, 1e-6, backend=backend),
        "persistent_layer_norm": lambda backend: tilegym.ops.persistent_layer_norm(x, (n,), w, w, 1e-6, backend=backend),
        "bmm (2x64x64x64 f16)": lambda backend: tilegym.ops.bmm(q, k, backend=backend),
    }
    out = {}
    for name, call in calls.items():
        for backend in ("cutile-cpp", "cutile"):
            try:
                out[f"{name} ({backend})"] = per_call_us(lambda: call(backend))
            except Exception as e:  # noqa: BLE001 (a backend that cannot run here is reported, not fatal)
                out[f"{name} ({backend})"] = f"failed: {type(e).__name__}: {str(e)[:200]}"
    return out


def op_pieces(name: str, inputs: tuple) -> dict:
    """Where a call of op `name` (outputs allocated by the call) spends its host time: the whole call, the
    call into given outputs, its Python alone, and its native call into given and into new outputs."""
    function = getattr(cutile_cpp, name)
    op: _functions.Op = function.__globals__["_op"]
    given = function(*inputs)
    given = given if isinstance(given, tuple) else (given,)
    outputs = dict(zip((op.names[i] for i in op.outputs), given))
    tensors = [None] * len(op.names)
    for i, t in zip(op.inputs, inputs):
        tensors[i] = t
    for i, t in zip(op.outputs, given):
        tensors[i] = t
    values = op.values((None,) * len(op.scalars))
    native, index = op.library.native, inputs[0].get_device()
    stream = torch.cuda.current_stream().cuda_stream or None

    def native_call(fresh: bool):
        call_tensors = list(tensors)
        if fresh:
            for i, t in zip(op.outputs, given):
                call_tensors[i] = torch.empty_like(t)
        return native.call(op.number, tuple(call_tensors), op.names, values, op.kinds, index, stream)

    for fresh in (False, True):  # what is timed below is a call that succeeds
        if status := native_call(fresh):
            _call.raise_for(status)
    pieces = {
        "the call": per_call_us(lambda: function(*inputs)),
        "the call into given outputs": per_call_us(lambda: function(*inputs, **outputs)),
        "native call into given outputs": per_call_us(lambda: native_call(False)),
        "native call into new outputs": per_call_us(lambda: native_call(True)),
        "new outputs alone": per_call_us(lambda: [torch.empty_like(t) for t in given]),
    }
    library = op.library
    op.library = dataclasses.replace(library, native=_ReturnsAtOnce(library.native))
    try:
        pieces["its Python alone (the native call returning at once)"] = per_call_us(lambda: function(*inputs))
    finally:
        op.library = library
    return pieces


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    a, b = torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda")
    c = torch.empty_like(a)
    x, w = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16), torch.randn(256, device="cuda", dtype=torch.bfloat16)
    abi = cutile_cpp.load_library()
    descriptors = [ctypes.byref(descriptor(abi, t)) for t in (c, a, b)]
    stream = torch.cuda.current_stream().cuda_stream or None

    def bare_call():
        if abi.cutile_cpp_vector_add(*descriptors, 0, stream) != 0:
            raise cutile_cpp.CutileCppError(abi.cutile_cpp_last_error().decode())

    calls = {
        "cutile_cpp.vector_add": lambda: cutile_cpp.vector_add(a, b),
        "cutile_cpp.vector_add into a given output": lambda: cutile_cpp.vector_add(a, b, c=c),
        "cutile_cpp.softmax (64x256 bf16)": lambda: cutile_cpp.softmax(x),
        "cutile_cpp.rms_norm (64x256 bf16)": lambda: cutile_cpp.rms_norm(x, w, 1e-6),
    }
    if "layer_norm_legacy" in cutile_cpp.ops.__all__:
        calls["cutile_cpp.layer_norm_legacy (64x256 bf16)"] = lambda: cutile_cpp.layer_norm_legacy(x, w, w, 1e-6)
    calls["cutile_cpp_vector_add via ctypes, descriptors made once"] = bare_call
    calls["torch.add"] = lambda: torch.add(a, b)
    result = {
        "gpu": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "method": f"median over {BATCHES} batches of {BATCH} calls of the per-call wall time (perf_counter); "
        f"stream drained between batches; {ROUNDS} rounds over every call, whose medians are given per round "
        "and as their median, and per round against torch.add's (a host's speed moves between rounds)",
    }
    rounds = {name: [] for name in calls}
    for _ in range(ROUNDS):
        for name, call in calls.items():
            rounds[name].append(per_call_us(call))
    result["host_call_us_median"] = {name: statistics.median(times) for name, times in rounds.items()}
    result["host_call_us_rounds"] = rounds
    result["host_call_over_torch_add_rounds"] = {
        name: [t / base for t, base in zip(times, rounds["torch.add"])] for name, times in rounds.items() if name != "torch.add"
    }
    op: _functions.Op = cutile_cpp.vector_add.__globals__["_op"]
    native, names, kinds = _call.library().native, op.names, op.kinds
    prepared = [c, a, b]
    index = a.get_device()
    result["python_pieces_us_median"] = {
        "checks and views of the inputs": per_call_us(lambda: op.prepare([None, a, b])),
        "parameters": per_call_us(lambda: op.values(())),
        "the output, allocated as its description derives it": per_call_us(lambda: op.allocate([None, a, b], (), a)),
        "current raw stream": per_call_us(lambda: torch._C._cuda_getCurrentRawStream(index)),
        "native call (descriptors packed, cutile_cpp_call)": per_call_us(
            lambda: native.call(op.number, tuple(prepared), names, (), kinds, index, stream)),
        "native call into a new output": per_call_us(
            lambda: native.call(op.number, (torch.empty_like(a), a, b), names, (), kinds, index, stream)),
        "a new output alone": per_call_us(lambda: torch.empty_like(a)),
    }
    result["bmm_pieces_us_median"] = op_pieces("bmm", (torch.randn(2, 64, 64, device="cuda", dtype=torch.float16),
                                                        torch.randn(2, 64, 64, device="cuda", dtype=torch.float16)))
    # The Python around the native call: each op's call with a native module that returns at once.
    result["python_glue_us_median"] = {}
    for name, call in calls.items():
        if not name.startswith("cutile_cpp."):
            continue
        glue_op: _functions.Op = getattr(cutile_cpp, name.split()[0].removeprefix("cutile_cpp.")).__globals__["_op"]
        library = glue_op.library
        glue_op.library = dataclasses.replace(library, native=_ReturnsAtOnce(library.native))
        try:
            result["python_glue_us_median"][name] = per_call_us(call)
        finally:
            glue_op.library = library
    result["through_tilegym_us_median"] = through_tilegym(x, w)
    torch.testing.assert_close(cutile_cpp.vector_add(a, b), a + b)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
