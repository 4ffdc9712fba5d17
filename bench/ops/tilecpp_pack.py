#!/usr/bin/env python3
"""Builds a tilecpp pack on a machine without a GPU: the cubins TileGym's tilecpp backend compiles for the
benchmark configurations, for a GPU machine that has no nvcc (bench/ops/tilecpp_nvcc.py serves them there).

    python3 bench/ops/tilecpp_pack.py --pack DIR --nvcc NVCC [--arch sm_90] [--sms 132] [--op OP ...]
        [--quick | --tiny]

It does not guess what TileGym compiles: it runs TileGym's own tilecpp wrappers, through the same spec
calls the harness makes, on meta tensors (no memory, no device), with the device queries answered for
the target GPU (compute capability, SM count) and launches dropped. Each compile TileGym starts goes to
tilecpp_nvcc.py in build mode, which runs the real nvcc and stores the cubin under the command's key. The
autotuner's timing returns a constant, so every candidate it compiles on the GPU (the first call of each
shape compiles them all before timing) is compiled here too. Each op's tiny configuration (the one the
launch-overhead loop and the first-call processes call) is included. Prints one JSON line per op: the
calls, the compiles added to the pack, the calls that raised (the GPU run would meet the same error).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

STAND_IN = HERE / "tilecpp_nvcc.py"

# H200 (sm_90, 132 SMs): the GPU the benchmarks run on.
DEFAULT_ARCH, DEFAULT_SMS = "sm_90", 132


def _stub_cuda_python() -> None:
    """TileGym's _cuda_utils imports cuda.bindings.driver and cuda.core at module level; on a machine
    without them (the python tier's environment), stand-ins that are never called for a launch."""
    try:
        import cuda.bindings.driver  # noqa: F401
        import cuda.core  # noqa: F401
        return
    except ImportError:
        pass
    import cuda  # the namespace package cuda-tile provides

    bindings = types.ModuleType("cuda.bindings")
    bindings.driver = types.SimpleNamespace()
    core = types.ModuleType("cuda.core")
    for name in ("Device", "LaunchConfig", "ObjectCode", "Stream", "launch"):
        setattr(core, name, None)
    sys.modules.update({"cuda.bindings": bindings, "cuda.bindings.driver": bindings.driver, "cuda.core": core})
    cuda.bindings, cuda.core = bindings, core


class _Props:
    def __init__(self, arch: str, sms: int):
        self.major, self.minor = int(arch[3:-1]), int(arch[-1])
        self.multi_processor_count = sms
        self.name = f"target {arch}"
        self.total_memory = 141 * 2**30
        self.L2_cache_size = 60 * 2**20


class _Stream:
    cuda_stream = 0

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass


class _Event:
    def __init__(self, *args, **kwargs):
        pass

    def record(self, *args):
        pass

    def synchronize(self):
        pass

    def elapsed_time(self, other):
        return 1.0


def fake_device(arch: str, sms: int) -> None:
    """Answers torch's device queries for the target GPU (TileGym makes some when it is imported)."""
    import torch

    props = _Props(arch, sms)
    torch.cuda.is_available = lambda: True
    torch.cuda.current_device = lambda: 0
    torch.cuda.device_count = lambda: 1
    torch.cuda.get_device_properties = lambda device=None: props
    torch.cuda.get_device_capability = lambda device=None: (props.major, props.minor)
    torch.cuda.current_stream = lambda device=None: _Stream()
    torch.cuda.synchronize = lambda device=None: None
    torch.cuda.Event = _Event


def fake_launches(arch: str) -> None:
    """Points TileGym's tilecpp compile at the target and drops launches (meta tensors hold no data)."""
    from tilegym.ops.tilecpp import autotuner
    from tilegym.ops.tilecpp.utils import _cuda_utils as cu

    props = _Props(arch, 0)
    cu._get_current_device_arch = lambda: props.major * 10 + props.minor
    cu.driver = types.SimpleNamespace(cuCtxGetCurrent=lambda: (0, 0))
    cu.get_kernel_name_from_cubin = lambda cubin, name, cubin_path=None: name
    cu.ObjectCode = types.SimpleNamespace(from_cubin=lambda data: types.SimpleNamespace(get_kernel=lambda n: None))
    cu.TileCppKernel.launch = lambda self, grid, kernel, args, stream=None: None
    autotuner._time_ms = lambda run_once, **kwargs: 1.0


def _cuda_to_meta():
    """A torch function mode that puts on the meta device what a wrapper allocates on "cuda" itself."""
    import torch
    from torch.overrides import TorchFunctionMode

    def is_cuda(device) -> bool:
        return isinstance(device, (str, torch.device, int)) and not isinstance(device, bool) and \
            torch.device(device if not isinstance(device, int) else "cuda").type == "cuda"

    class CudaToMeta(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if func is torch.Tensor.cuda:
                return args[0]
            if is_cuda(kwargs.get("device")):
                kwargs["device"] = "meta"
            if func is torch.Tensor.to:
                args = tuple(torch.device("meta") if i > 0 and is_cuda(a) else a for i, a in enumerate(args))
            return func(*args, **kwargs)

    return CudaToMeta()


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", type=Path, required=True, help="the pack directory (created or added to)")
    parser.add_argument("--nvcc", required=True,
                        help="a real nvcc >= 13.3 (CUDA Tile C++); 'list': list the compiles without compiling; "
                        "'serve': compile nothing, check that the pack holds every compile (misses are errors)")
    parser.add_argument("--arch", default=DEFAULT_ARCH)
    parser.add_argument("--sms", type=int, default=DEFAULT_SMS, help="the target GPU's SM count")
    parser.add_argument("--op", nargs="+", action="extend")
    subset = parser.add_mutually_exclusive_group()
    subset.add_argument("--quick", action="store_true")
    subset.add_argument("--tiny", action="store_true")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv if argv is not None else sys.argv[1:])
    args.pack.mkdir(parents=True, exist_ok=True)
    # An empty TileGym cache, so that every compile reaches the stand-in.
    cache = Path(tempfile.mkdtemp(prefix="tilecpp-pack-tilegym-cache-"))
    # TileGym reads these when it is imported.
    os.environ.update(TILECPP_NVCC_PATH=str(STAND_IN), TILECPP_PACK_DIR=str(args.pack.resolve()),
                      TILECPP_CACHE_DIR=str(cache.resolve()))
    if args.nvcc == "serve":
        os.environ.pop("TILECPP_PACK_BUILD_NVCC", None)
    else:
        os.environ["TILECPP_PACK_BUILD_NVCC"] = args.nvcc
    os.environ.pop("TILEGYM_DISABLE_AUTOTUNE", None)
    os.environ.pop("TILECPP_AUTOTUNE", None)
    _stub_cuda_python()
    fake_device(args.arch, args.sms)
    import torch

    import tilegym.ops  # noqa: F401
    from tilegym.backend import dispatcher, selector

    import configs as C
    import harness

    if not selector.is_tilecpp_available():
        print(f"tilecpp_pack: TileGym does not accept {args.nvcc} as nvcc >= 13.3", file=sys.stderr)
        return 1
    fake_launches(args.arch)
    subset = "tiny" if args.tiny else "quick" if args.quick else "full"
    meta = torch.device("meta")
    failures = 0
    for spec in C.select(args.op):
        if "tilecpp" not in spec.backends or not dispatcher.has_backend_impl(spec.tilegym_op, "tilecpp"):
            continue
        before = len(list((args.pack / "entries").glob("*.json"))) if (args.pack / "entries").is_dir() else 0
        start, calls, errors = time.time(), 0, []
        configs = [c for s, c in harness.plan([spec], subset)] + [C.Config(dict(spec.tiny))]
        for config in configs:
            try:
                with _cuda_to_meta():
                    inputs = spec.build(config.params, meta)
                    spec.invoke("tilecpp", config.params, inputs)()
                calls += 1
            except Exception as error:  # recorded; the GPU run will meet the same error
                errors.append(f"{config.id}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
        after = len(list((args.pack / "entries").glob("*.json")))
        failures += len(errors)
        print(json.dumps({"op": spec.name, "configs": len(configs), "calls": calls, "new_compiles": after - before,
                          "seconds": round(time.time() - start, 1), "errors": errors[:5]}), flush=True)
    shutil.rmtree(cache, ignore_errors=True)
    misses = os.environ.get("TILECPP_PACK_MISSES")
    if args.nvcc == "serve" and misses and Path(misses).is_file() and Path(misses).read_text().strip():
        print(f"tilecpp_pack: the pack lacks {len(Path(misses).read_text().splitlines())} compile(s): {misses}",
              file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
