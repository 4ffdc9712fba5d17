"""Benchmark configurations of the ported TileGym ops: the OpSpec every op's module fills in, and the
registry of them.

Each op has a module bench/ops/specs/<op>.py that defines its PyTorch reference, `reference(...)` (the one
the python tests check against too), and `SPEC`, an OpSpec: its TileGym dispatcher name, family, where its
configurations come from (TileGym 1.5.1's tests/benchmark/bench_<op>.py; where TileGym has none, its
tests/ops test_perf or test_op shapes, said in `source`), the configurations (a `quick` subset is marked),
the input builder, the call per backend, the check against the reference with TileGym's tolerances, and
the bytes (or flops) formula TileGym uses for its GB/s (TFLOP/s) column. OPS holds every module's SPEC:
adding an op is adding its module.

Backends: "cutile-cpp" (this library, through TileGym's dispatcher), "cutile" (TileGym's cuTile Python
kernels), "triton" (TileGym's Triton kernels, where ops/triton has the op), "tilecpp" (TileGym's CUDA Tile
C++ kernels, from a pack of cubins compiled ahead of time: tilecpp_backend.py) go through
`tilegym.ops.<op>(..., backend=NAME)`; "cutile-untuned" is "cutile" with TileGym's autotuning switched off
(TILEGYM_DISABLE_AUTOTUNE=1 around each call: its fixed defaults, which are what cutile-cpp ports);
"pytorch" calls the torch reference TileGym's benchmark registers ("torch"), which is also the reference of
the correctness check.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import torch

from names import FAMILY_GROUPS, UNTUNED

TILEGYM_BACKENDS = ("cutile-cpp", "cutile", "cutile-untuned", "triton", "tilecpp")
BACKENDS = TILEGYM_BACKENDS + ("pytorch",)
DISABLE_AUTOTUNE_ENV = "TILEGYM_DISABLE_AUTOTUNE"  # read by TileGym at every call


@dataclass
class Config:
    params: dict
    quick: bool = False

    @property
    def id(self) -> str:
        """e.g. M4096-N1024-bfloat16-tma: numbers after their names, dtypes and variant names alone."""
        return "-".join(_short(v) if isinstance(v, (str, torch.dtype)) else f"{k}{_short(v)}"
                        for k, v in self.params.items())


@dataclass
class OpSpec:
    name: str  # harness name (--op)
    tilegym_op: str  # the dispatcher's name: tilegym.backend.dispatcher._REGISTRY key
    family: str
    source: str  # where the configurations and the formula come from
    metric: str  # "GB/s" (bytes) or "TFLOP/s" (flops)
    configs: list[Config]
    tiny: dict  # a small configuration for the host launch overhead
    build: Callable[[dict, torch.device], dict]  # params, device -> inputs
    call: Callable[[str, dict, dict], Callable[[], Any]]  # backend, params, inputs -> a zero-argument call
    check: Callable[[Any, dict, dict], None]  # output, params, inputs; raises AssertionError
    amount: Callable[[dict, dict], int]  # params, inputs -> bytes moved (GB/s) or flops (TFLOP/s)
    triton: bool = False  # TileGym has a Triton implementation (ops/triton)
    # Parameters that pick among a kernel's variants: backends that have no such variants (`variantless`:
    # pytorch, triton, and others where the spec says so) run the same call for every value, so they are
    # measured once per remaining parameters.
    variant_params: tuple = ()
    variantless: tuple = ("pytorch", "triton")
    # Inputs the op writes in place: each checked call gets fresh clones of them (the originals kept as
    # <name>0, for the reference).
    in_place: tuple = ()
    notes: str = ""
    backends: tuple = field(default=BACKENDS)

    def backends_for(self) -> tuple:
        return tuple(b for b in self.backends if b != "triton" or self.triton)

    def invoke(self, backend: str, params: dict, inputs: dict) -> Callable[[], Any]:
        """The zero-argument call of `backend`; cutile-untuned is TileGym's cutile with autotuning off."""
        if backend != UNTUNED:
            return self.call(backend, params, inputs)
        fn = self.call("cutile", params, inputs)

        def untuned():
            before = os.environ.get(DISABLE_AUTOTUNE_ENV)
            os.environ[DISABLE_AUTOTUNE_ENV] = "1"
            try:
                return fn()
            finally:
                if before is None:
                    del os.environ[DISABLE_AUTOTUNE_ENV]
                else:
                    os.environ[DISABLE_AUTOTUNE_ENV] = before

        return untuned


def _short(value) -> str:
    if isinstance(value, torch.dtype):
        return str(value).removeprefix("torch.")
    if isinstance(value, (tuple, list)):
        return "x".join(str(v) for v in value)
    return str(value)


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def public_op(name: str):
    """tilegym.ops.<name> (activations live in tilegym.ops.activation)."""
    import tilegym.ops

    if hasattr(tilegym.ops, name):
        return getattr(tilegym.ops, name)
    return getattr(tilegym.ops.activation, name)


def tilegym_call(name: str, backend: str, *args, **kwargs):
    return lambda: public_op(name)(*args, backend=backend, **kwargs)


def close(rtol: float, atol: float):
    def check(out, ref):
        if isinstance(out, (tuple, list)):
            out = out[0]
        torch.testing.assert_close(out, ref, rtol=rtol, atol=atol)

    return check


def numel_bytes(*tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


SPECS_DIR = Path(__file__).resolve().parent / "specs"


def spec_module(name: str):
    """bench/ops/specs/<name>.py, imported once (as bench_spec_<name>)."""
    qualified = f"bench_spec_{name}"
    import sys

    if qualified not in sys.modules:
        loader = importlib.util.spec_from_file_location(qualified, SPECS_DIR / f"{name}.py")
        module = importlib.util.module_from_spec(loader)
        sys.modules[qualified] = module
        loader.loader.exec_module(module)
    return sys.modules[qualified]


def _all_specs() -> dict[str, OpSpec]:
    specs = {}
    for path in sorted(SPECS_DIR.glob("*.py")):
        module = spec_module(path.stem)
        if hasattr(module, "SPEC"):
            specs[module.SPEC.name] = module.SPEC
    return specs


OPS: dict[str, OpSpec] = _all_specs()
FAMILIES = sorted({spec.family for spec in OPS.values()})


def in_place_inputs(spec: OpSpec, inputs: dict) -> dict:
    """Inputs for one checked call: the inputs the op writes are fresh clones (the originals kept as
    <name>0 for the reference)."""
    if not spec.in_place:
        return inputs
    fresh = dict(inputs)
    for name in spec.in_place:
        fresh[name + "0"] = inputs[name].clone()
        fresh[name] = inputs[name].clone()
    return fresh


def select(ops: list[str] | None = None, families: list[str] | None = None) -> list[OpSpec]:
    names = list(OPS)
    if ops:
        unknown = [o for o in ops if o not in OPS]
        if unknown:
            raise ValueError(f"unknown op(s) {', '.join(unknown)}; ops: {', '.join(OPS)}")
        names = [n for n in names if n in ops]
    if families:
        wanted = set(itertools.chain.from_iterable(FAMILY_GROUPS.get(f, (f,)) for f in families))
        unknown = wanted - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown family {', '.join(sorted(unknown))}; families: "
                             f"{', '.join(FAMILIES + sorted(FAMILY_GROUPS))}")
        names = [n for n in names if OPS[n].family in wanted]
    return [OPS[n] for n in names]
