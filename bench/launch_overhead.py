"""Host cost of launching a cached kernel from Python (vector add, float32, 4096 elements, on the GPU):
cutile_cpp.vector_add (argument checks, output allocation, descriptors, the C ABI call), the bare C ABI
call with descriptors made once, and torch.add for scale; then the pieces of cutile_cpp.vector_add alone
(output allocation, descriptor packing, current-stream lookup, argument checks) to show where its time
goes. Per case: batches of launches timed with
time.perf_counter, the stream drained between batches outside the timing; the median per-launch time
of the batches is reported. Prints one JSON object (and writes it to --json FILE).
    python3 bench/launch_overhead.py [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import torch  # noqa: E402

import cutile_cpp  # noqa: E402
from cutile_cpp import _tensor  # noqa: E402

BATCH = 200
BATCHES = 200


def per_launch_us(launch) -> float:
    stream = torch.cuda.current_stream()
    for _ in range(BATCH):  # warm-up: the first launch compiles or reads the cubin cache
        launch()
    stream.synchronize()
    times = []
    for _ in range(BATCHES):
        start = time.perf_counter()
        for _ in range(BATCH):
            launch()
        times.append((time.perf_counter() - start) / BATCH * 1e6)
        stream.synchronize()
    return statistics.median(times)


def _check_vector_add_arguments(a: torch.Tensor, b: torch.Tensor) -> None:
    """What cutile_cpp.vector_add checks before it allocates (the same calls, in the same order)."""
    from cutile_cpp._ops import _common

    _common.check_tensor("vector_add", "a", a)
    _common.check_tensor("vector_add", "b", b)
    assert a.dim() == 1 and b.dim() == 1 and a.shape == b.shape and a.dtype == b.dtype and a.device == b.device
    _common.forward_only("vector_add", a, b)
    torch.compiler.is_compiling()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    a, b = torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda")
    c = torch.empty_like(a)
    abi = cutile_cpp.load_library()
    descriptors = [_tensor.descriptor(t) for t in (c, a, b)]
    stream = torch.cuda.current_stream().cuda_stream or None

    def bare_call():
        if abi.cutile_cpp_vector_add(*descriptors, 0, stream) != 0:
            raise cutile_cpp.CutileCppError(abi.cutile_cpp_last_error().decode())

    result = {
        "gpu": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "kernel": "vector_add<f32, 1024>, 4096 elements",
        "method": f"median over {BATCHES} batches of {BATCH} launches of the per-launch wall time (perf_counter); "
        "stream drained between batches",
        "host_launch_us_median": {
            "cutile_cpp.vector_add": per_launch_us(lambda: cutile_cpp.vector_add(a, b)),
            "cutile_cpp_vector_add via ctypes, descriptors made once": per_launch_us(bare_call),
            "torch.add": per_launch_us(lambda: torch.add(a, b)),
        },
    }
    packing = _tensor._descriptors_of_library()
    scratch = (packing.type * 3)()
    result["python_pieces_us_median"] = {
        "torch.empty_like (the output)": per_launch_us(lambda: torch.empty_like(a)),
        "3 descriptors packed in place": per_launch_us(lambda: packing.packer.pack(scratch, (c, a, b), ("c", "a", "b"))),
        "current raw stream": per_launch_us(lambda: torch._C._cuda_getCurrentRawStream(0)),
        "argument checks": per_launch_us(lambda: _check_vector_add_arguments(a, b)),
    }
    torch.testing.assert_close(cutile_cpp.vector_add(a, b), a + b)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
