"""Per-op recipes: which TileGym kernels to export and the arguments TileGym's launcher passes them, one
module per recipe (recipes/<name>.py defines RECIPE, and ALIASES when TileGym has other names for it);
RECIPES holds every module's.

Each recipe takes the op's configuration (defaults: the configuration TileGym's benchmarks in
tests/benchmark/bench_*.py run, at its middle size; overridable with --config key=value) and yields one Launch per kernel
variant, mirroring the launcher in tilegym/ops/cutile/<module>.py of tilegym 1.5.1: the argument
tuple (Array/Scalar for runtime arguments, plain values for ct.Constant ones, in the launcher's
order and Python types) and the hints it attaches with replace_hints().

Autotuned launchers pick a configuration by timing candidates on the GPU. With no GPU the
exporter takes the first candidate of the H200 branch (compute capability 9.0 takes the
"else"/Blackwell branch of TileGym's candidate lists), which is also what TileGym runs with
TILEGYM_DISABLE_AUTOTUNE=1; every such choice can be overridden through --config.
"""
import importlib
import pkgutil
from dataclasses import dataclass, field


H200_SMS = 132


@dataclass
class Launch:
    variant: str          # short name, used in the output file name
    kernel_name: str      # attribute of the TileGym module
    args: tuple           # as the launcher passes them (Array / Scalar / constant values)
    hints: dict = field(default_factory=dict)  # replace_hints() arguments; empty = the decorator's
    note: str = ""        # the launcher choice this mirrors


@dataclass
class Recipe:
    module: str           # tilegym.ops.cutile.<module>
    defaults: dict
    build: object         # (config) -> list[Launch]
    doc: str


def next_power_of_2(n):
    return 1 << (n - 1).bit_length() if n > 0 else 1


def cdiv(a, b):
    return (a + b - 1) // b


def _discover() -> dict:
    found = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name in (info.name, *getattr(module, "ALIASES", ())):
            found[name] = module.RECIPE
    return found


RECIPES = _discover()
