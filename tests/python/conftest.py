"""Fixtures of the python tier: the library binding, status codes by name, raw descriptors, TileGym with
our backend registered."""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import tempfile

import pytest

# torch.compile's generated code is cached by the source of the graph, not by our ops' schemas: a cache
# shared with another build of this library (another checkout, an older version) can hand back code that
# calls an op with the other build's signature. Each session compiles into its own directory.
if "TORCHINDUCTOR_CACHE_DIR" not in os.environ:
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="cutile-cpp-inductor-")
    atexit.register(shutil.rmtree, os.environ["TORCHINDUCTOR_CACHE_DIR"], ignore_errors=True)

import cutile_cpp


@pytest.fixture(scope="session")
def tilegym():
    """tilegym, its ops imported and backend "cutile-cpp" registered; the test is skipped without it."""
    module = pytest.importorskip("tilegym", reason="needs tilegym (scripts/python_env.sh installs it)")
    importlib.import_module("tilegym.ops")
    importlib.import_module("cutile_cpp.tilegym")
    return module


@pytest.fixture(scope="session")
def abi():
    return cutile_cpp.load_library()


@pytest.fixture
def status(abi):
    """Status code by short name: status.ALIASING == CUTILE_CPP_ERROR_ALIASING."""

    class Codes:
        def __getattr__(self, name):
            key = "CUTILE_CPP_OK" if name == "OK" else f"CUTILE_CPP_ERROR_{name}"
            return abi.enums["cutile_cpp_status"][key]

    return Codes()


@pytest.fixture
def desc(abi):
    """make(shape, dtype="F32", device="CUDA", device_id=0, data=0x10000, strides=row-major) → a raw
    cutile_cpp_tensor; the address is never dereferenced by the checks that fail before anything runs."""

    def make(shape, dtype="F32", device="CUDA", device_id=0, data=0x10000, strides=None):
        d = abi.structs["cutile_cpp_tensor"]()
        if strides is None:
            strides, step = [], 1
            for extent in reversed(shape):
                strides.insert(0, step)
                step *= max(extent, 1)
        d.data = data
        d.ndim = len(shape)
        d.shape[: len(shape)] = shape
        d.strides[: len(strides)] = strides
        d.dtype = abi.enums["cutile_cpp_dtype"][f"CUTILE_CPP_{dtype}"]
        d.device_type = abi.enums["cutile_cpp_device_type"][f"CUTILE_CPP_DEVICE_{device}"]
        d.device_id = device_id
        return d

    return make

