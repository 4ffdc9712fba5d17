"""Imports TileGym's cuTile kernel modules without PyTorch, TileGym's package init or a GPU.

TileGym (PyPI `tilegym`) imports torch at the top of every op module, and its package __init__
also imports transformers and probes for every backend (nvcc, triton, the tilecpp and cutile-rs
libraries). The @ct.kernel functions themselves never touch torch: torch only appears in launch
wrappers, autograd classes, nn.Module subclasses and type annotations, all of which merely have
to *define* at import time. So, inside this process only:

- `torch` and every `torch.*` submodule resolve to a stub (see `_TorchStub`) whose attributes are
  classes that can be subclassed, called, used as decorators and used in annotations. Any code
  that actually *runs* torch (a launch wrapper) would misbehave, and is never called here.
- `tilegym`, `tilegym.ops` and `tilegym.ops.cutile` are bare namespace modules over the installed
  package's directories, so their __init__ files never run; the op module file and its real
  helpers (tilegym.autotune, .experimental, .logger, ops/cutile/utils.py) are imported normally.
- `tilegym.backend` is replaced by a module that only offers `register_impl` as a no-op decorator,
  because the real one probes the machine for backends at import time.

What is needed: `cuda-tile` (its C extension imports without libcuda) and the `tilegym` wheel
installed without dependencies (`pip install --no-deps tilegym==1.5.1`). Nothing else.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types


class _StubMeta(type):
    """Metaclass of torch stand-ins: any attribute is another stand-in class, created on use."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        child = _StubMeta(f"{cls.__name__}.{name}", (_Stub,), {"__module__": "torch"})
        setattr(cls, name, child)
        return child

    def __call__(cls, *args, **kwargs):
        # `@torch.no_grad()`, `@torch.library.custom_op(...)`, `@torch.compile` and so on:
        # a call with one callable returns it unchanged, any other call returns a stand-in.
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _StubMeta):
            return args[0]
        return cls


class _Stub(metaclass=_StubMeta):
    pass


class _TorchStub(types.ModuleType):
    """A stand-in for `torch` or one of its submodules."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []  # a package, so `import torch.nn.functional` resolves through the finder
        self.__doc__ = "stub installed by tools/reference/tilegym_loader.py; no real torch here"

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(_StubMeta(self.__name__, (_Stub,), {"__module__": "torch"}), name)
        setattr(self, name, value)
        return value


class _TorchStubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "torch" or fullname.startswith("torch."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _TorchStub(spec.name)

    def exec_module(self, module):
        parent, _, child = module.__name__.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)


class _BackendStub(types.ModuleType):
    """tilegym.backend: op modules only use its `register_impl` decorator at import time."""

    def __init__(self):
        super().__init__("tilegym.backend")

    @staticmethod
    def register_impl(name, backend):
        return lambda fn: fn

    def __getattr__(self, name):
        raise AttributeError(f"tilegym.backend.{name} is not available in the reference exporter's stub "
                             "(only register_impl is); the op module needs more of TileGym's backend layer")


def _tilegym_root():
    spec = importlib.util.find_spec("tilegym")  # finds the directory without running __init__
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the `tilegym` package is not installed; run scripts/export_reference.sh, which "
                          "installs tilegym==1.5.1 with --no-deps (no torch) next to cuda-tile")
    return list(spec.submodule_search_locations)[0]


def _namespace(name, directory):
    module = types.ModuleType(name)
    module.__path__ = [directory]
    module.__package__ = name
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


_root = None  # the installed tilegym package directory, once install() ran


def install():
    """Installs the torch stub and TileGym's bare package modules into this process (once)."""
    global _root
    if _root:
        return _root
    try:
        import cuda.tile  # noqa: F401
    except ImportError as error:
        raise ImportError(f"cuda.tile cannot be imported ({error}); run scripts/export_reference.sh, which "
                          "installs cuda-tile==1.7.0") from error
    root = _tilegym_root()
    if "torch" not in sys.modules:
        sys.meta_path.insert(0, _TorchStubFinder())
    _namespace("tilegym", root)
    _namespace("tilegym.ops", os.path.join(root, "ops"))
    _namespace("tilegym.ops.cutile", os.path.join(root, "ops", "cutile"))
    sys.modules["tilegym.backend"] = _BackendStub()
    sys.modules["tilegym"].backend = sys.modules["tilegym.backend"]
    _root = root
    return root


def tilegym_version():
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("tilegym")
    except PackageNotFoundError:
        return "unknown"


class _RelativePathLoader(importlib.machinery.SourceFileLoader):
    """Compiles a module with a file name relative to the site directory ("tilegym/ops/cutile/x.py"):
    cuTile records the kernel's file in the bytecode's debug info, and an install path there would make
    the export depend on where the packages happen to be installed."""

    def __init__(self, fullname, path, relative):
        super().__init__(fullname, path)
        self.relative = relative

    def get_code(self, fullname):
        return compile(self.get_data(self.path), self.relative, "exec", dont_inherit=True)


def load_cutile_module(name):
    """Imports tilegym.ops.cutile.<name> (e.g. "softmax", or "activation.gelu" in a subpackage, whose
    __init__ does not run either) and returns the module."""
    root = install()
    fullname = f"tilegym.ops.cutile.{name}"
    if fullname in sys.modules:
        return sys.modules[fullname]
    parts = name.split(".")
    for depth in range(1, len(parts)):
        package = "tilegym.ops.cutile." + ".".join(parts[:depth])
        if package not in sys.modules:
            _namespace(package, os.path.join(root, "ops", "cutile", *parts[:depth]))
    path = os.path.join(root, "ops", "cutile", *parts[:-1], f"{parts[-1]}.py")
    if not os.path.isfile(path):
        raise ImportError(f"TileGym has no cuTile module {path}")
    loader = _RelativePathLoader(fullname, path, "tilegym/ops/cutile/" + "/".join(parts) + ".py")
    spec = importlib.util.spec_from_file_location(fullname, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[fullname] = module
    try:
        loader.exec_module(module)
    except BaseException:
        del sys.modules[fullname]
        raise
    return module
