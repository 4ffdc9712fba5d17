"""Finding, building and loading libcutile_cpp_kernels.so.

The package's C extension cutile_cpp._native (python/ext/native.c) is found and built the same way, next to
the library in release mode and in <build>/python in development mode.

Two modes (CUTILE_CPP_MODE, default: development when this package is imported from a cutile-cpp source
tree, release otherwise):
  release      the library and header installed inside the package (pip install)
  development  the library in the CMake build directory (CUTILE_CPP_BUILD_DIR, default <repo>/build),
               rebuilt first when it is missing or older than any C++ source, under a file lock so that
               concurrent processes build once; CUTILE_CPP_AUTOBUILD=0 turns the rebuild into an error.
CUTILE_CPP_LIBRARY names a library file to load as is (its header is then the package's or the tree's).
A rebuilt library takes effect in the next process: a process keeps the library it loaded first.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

from ._abi import Binding, parse_header
from .errors import CutileCppBuildError, CutileCppError

LIBRARY_NAME = "libcutile_cpp_kernels.so"
# The C extension that calls the library's ops (python/ext/native.c), built for this interpreter.
NATIVE_NAME = "_native" + sysconfig.get_config_var("EXT_SUFFIX")
HEADER = Path("cutile_cpp") / "kernels.h"
_PACKAGE = Path(__file__).resolve().parent
_SOURCE_DIRS = ("capi", "kernels", "include", "src", "python/ext")
_SOURCE_SUFFIXES = {".h", ".hpp", ".c", ".cpp", ".map", ".txt"}
_BUILD_TIMEOUT_S = 1800

_lock = threading.Lock()
_binding: Binding | None = None


def source_root() -> Path | None:
    """The cutile-cpp source tree this package sits in, if it does."""
    root = _PACKAGE.parents[1]
    if (root / "capi" / "include" / HEADER).is_file() and (root / "CMakeLists.txt").is_file():
        return root
    return None


def mode() -> str:
    chosen = os.environ.get("CUTILE_CPP_MODE") or ("development" if source_root() else "release")
    if chosen not in ("development", "release"):
        raise CutileCppError(f"CUTILE_CPP_MODE={chosen!r}: expected 'development' or 'release'")
    if chosen == "development" and source_root() is None:
        raise CutileCppError(f"CUTILE_CPP_MODE=development, but {_PACKAGE} is not inside a cutile-cpp source tree")
    return chosen


def build_dir() -> Path:
    return Path(os.environ.get("CUTILE_CPP_BUILD_DIR") or source_root() / "build").resolve()


def header_path() -> Path:
    root = source_root()
    return root / "capi" / "include" / HEADER if root else _PACKAGE / "include" / HEADER


def newest_source_mtime(root: Path) -> float:
    newest = 0.0
    for directory in _SOURCE_DIRS:
        for path in (root / directory).rglob("*"):
            if path.suffix in _SOURCE_SUFFIXES and path.is_file():
                newest = max(newest, path.stat().st_mtime)
    return newest


def is_stale(outputs: list[Path], root: Path) -> bool:
    """Whether one of `outputs` is missing or older than a C++ source of the tree at `root`."""
    newest = newest_source_mtime(root)
    return any(not output.is_file() or output.stat().st_mtime < newest for output in outputs)


def _autobuild_enabled() -> bool:
    return os.environ.get("CUTILE_CPP_AUTOBUILD", "1").lower() not in ("0", "false", "no", "off")


def build_command(root: Path, build: Path) -> list[list[str]]:
    """The commands that (configure if needed and) build the library and the native extension."""
    commands = []
    if not (build / "CMakeCache.txt").is_file():
        commands.append(
            ["cmake", "-S", str(root), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", f"-DCUTILE_PYTHON={sys.executable}"]
        )
    commands.append(["cmake", "--build", str(build), "--target", "cutile_cpp_kernels", "cutile_cpp_native"])
    return commands


def ensure_built(root: Path, build: Path, outputs: list[Path], commands: list[list[str]] | None = None) -> bool:
    """Rebuilds `outputs` when one is stale, once across processes (flock on <build>/.cutile_cpp_build.lock).
    Returns whether a build ran."""
    if not is_stale(outputs, root):
        return False
    if not _autobuild_enabled():
        names = ", ".join(str(output) for output in outputs)
        raise CutileCppBuildError(f"{names}: missing or older than the C++ sources, and CUTILE_CPP_AUTOBUILD=0")
    build.mkdir(parents=True, exist_ok=True)
    with open(build / ".cutile_cpp_build.lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            if not is_stale(outputs, root):  # another process built them while this one waited
                return False
            for command in commands or build_command(root, build):
                try:
                    done = subprocess.run(command, capture_output=True, text=True, timeout=_BUILD_TIMEOUT_S)
                except (OSError, subprocess.TimeoutExpired) as error:
                    raise CutileCppBuildError(f"{' '.join(command)}: {error}") from error
                if done.returncode != 0:
                    output = (done.stdout + done.stderr)[-2000:]
                    raise CutileCppBuildError(f"{' '.join(command)} failed (exit {done.returncode}):\n{output}")
            for output in outputs:
                if not output.is_file():
                    raise CutileCppBuildError(
                        f"the build finished but {output} is missing (for another interpreter than "
                        f"{sys.executable}, configure the build with -DCUTILE_PYTHON={sys.executable})"
                    )
                # The build system decides what a source change touches (a header an output does not
                # include changes nothing); the outputs are current now.
                os.utime(output)
            return True
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def library_path() -> Path:
    override = os.environ.get("CUTILE_CPP_LIBRARY")
    if override:
        return Path(override)
    if mode() == "release":
        return _PACKAGE / "lib" / LIBRARY_NAME
    return _development_build()[0]


def native_module_path() -> Path:
    """The native extension: the package's in release mode, else the build directory's (rebuilt when stale,
    as the library is)."""
    if mode() == "release":
        return _PACKAGE / NATIVE_NAME
    return _development_build()[1]


@functools.cache
def _development_build() -> tuple[Path, Path]:
    """The library and the extension in the build directory, built together when either is stale; checked
    once per process (a rebuild takes effect in the next process anyway)."""
    outputs = (build_dir() / "capi" / LIBRARY_NAME, build_dir() / "python" / NATIVE_NAME)
    ensure_built(source_root(), build_dir(), list(outputs))
    return outputs


def load_native_module():
    """The cutile_cpp._native module (python/ext/native.c)."""
    name = "cutile_cpp._native"
    if name in sys.modules:
        return sys.modules[name]
    path = native_module_path()
    if not path.is_file():
        raise CutileCppError(f"{path} does not exist (mode {mode()}): the package's C extension was not built")
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
    loader.exec_module(module)
    sys.modules[name] = module
    return module


def load() -> Binding:
    """The binding of the library, loaded (and in development mode built) on first use."""
    global _binding
    if _binding is not None:
        return _binding
    with _lock:
        if _binding is None:
            path = library_path()
            if not path.is_file():
                raise CutileCppError(f"{path} does not exist (mode {mode()}); build it or set CUTILE_CPP_LIBRARY")
            header = parse_header(header_path().read_text())
            binding = Binding(header, ctypes.CDLL(str(path)))
            if binding.cutile_cpp_abi_version() != header.constants["CUTILE_CPP_ABI_VERSION"]:
                raise CutileCppError(
                    f"{path} has ABI version {binding.cutile_cpp_abi_version()}, "
                    f"the header {header.constants['CUTILE_CPP_ABI_VERSION']}"
                )
            descriptor = binding.structs["cutile_cpp_tensor"]
            if binding.cutile_cpp_tensor_size() != ctypes.sizeof(descriptor):
                raise CutileCppError(
                    f"{path}: cutile_cpp_tensor is {binding.cutile_cpp_tensor_size()} bytes in the library but "
                    f"{ctypes.sizeof(descriptor)} as read from {header_path()}"
                )
            _binding = binding
        return _binding
