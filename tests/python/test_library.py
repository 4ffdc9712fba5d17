"""Loading the library: the binding generated from the header, and development mode's rebuild."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cutile_cpp import _abi, _library
from cutile_cpp.errors import CutileCppBuildError, CutileCppError


def test_every_declared_function_is_bound(abi):
    declared = re.findall(r"CUTILE_CPP_API\s+[\w\s\*]+?\b(cutile_cpp_\w+)\s*\(", _library.header_path().read_text())
    assert sorted(declared) == sorted(abi.header.functions)
    assert {"cutile_cpp_softmax", "cutile_cpp_vector_add", "cutile_cpp_last_error"} <= set(declared)
    for name in declared:
        assert callable(getattr(abi, name))


def test_descriptor_layout_matches_the_library(abi):
    import ctypes

    descriptor = abi.structs["cutile_cpp_tensor"]
    assert abi.cutile_cpp_tensor_size() == ctypes.sizeof(descriptor) == 104
    assert abi.cutile_cpp_abi_version() == abi.constants["CUTILE_CPP_ABI_VERSION"]


def test_parser_refuses_what_it_cannot_bind():
    with pytest.raises(_abi.HeaderError, match="no CUTILE_CPP_API functions found"):
        _abi.parse_header("#define X 1\n")
    with pytest.raises(_abi.HeaderError, match=r"enum e: entry 'A' has no explicit integer value"):
        _abi.parse_header("typedef enum e { A } e;\nCUTILE_CPP_API int32_t f(void);")
    header = _abi.parse_header("CUTILE_CPP_API float f(void);")
    with pytest.raises(_abi.HeaderError, match=r"type 'float' has no ctypes binding"):
        _abi.Binding(header, None)


def make_tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, build = tmp_path / "tree", tmp_path / "tree" / "build"
    (root / "capi").mkdir(parents=True)
    build.mkdir()
    return root, build, build / "capi" / _library.LIBRARY_NAME


def touch(path: Path, mtime: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x")
    os.utime(path, (mtime, mtime))


def fake_build(library: Path) -> list[list[str]]:
    return [[sys.executable, "-c", f"import pathlib; p = pathlib.Path({str(library)!r}); "
             "p.parent.mkdir(parents=True, exist_ok=True); p.write_text('built')"]]


def test_staleness(tmp_path):
    root, _, library = make_tree(tmp_path)
    touch(root / "capi" / "src" / "a.cpp", 1000)
    assert _library.is_stale([library], root)  # missing
    touch(library, 2000)
    assert not _library.is_stale([library], root)
    touch(root / "kernels" / "normalization" / "softmax.hpp", 3000)
    assert _library.is_stale([library], root)
    touch(root / "kernels" / "README.md", 4000)  # not a C++ source
    touch(library, 3500)
    assert not _library.is_stale([library], root)
    extension = library.parent.parent / "python" / _library.NATIVE_NAME
    assert _library.is_stale([library, extension], root)  # one output missing
    touch(extension, 3500)
    assert not _library.is_stale([library, extension], root)
    touch(root / "python" / "ext" / "native.c", 3600)  # the extension's source
    assert _library.is_stale([library, extension], root)


def test_rebuild_when_stale_and_only_then(tmp_path):
    root, build, library = make_tree(tmp_path)
    touch(root / "capi" / "src" / "a.cpp", 1000)
    assert _library.ensure_built(root, build, [library], fake_build(library))
    assert library.read_text() == "built"
    assert not _library.ensure_built(root, build, [library], [["false"]])  # up to date: nothing runs
    assert (build / ".cutile_cpp_build.lock").exists()


def test_concurrent_rebuilds_build_once(tmp_path):
    root, build, library = make_tree(tmp_path)
    touch(root / "capi" / "src" / "a.cpp", 1000)
    results = []
    threads = [threading.Thread(target=lambda: results.append(_library.ensure_built(root, build, [library], fake_build(library))))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, False, True]


def test_failed_build_reports_its_output(tmp_path):
    root, build, library = make_tree(tmp_path)
    touch(root / "capi" / "src" / "a.cpp", 1000)
    command = [[sys.executable, "-c", "import sys; sys.stderr.write('softmax.cpp:1: error: no'); sys.exit(3)"]]
    with pytest.raises(CutileCppBuildError, match=r"failed \(exit 3\):\nsoftmax.cpp:1: error: no"):
        _library.ensure_built(root, build, [library], command)


def test_autobuild_off(tmp_path, monkeypatch):
    root, build, library = make_tree(tmp_path)
    touch(root / "capi" / "src" / "a.cpp", 1000)
    monkeypatch.setenv("CUTILE_CPP_AUTOBUILD", "0")
    with pytest.raises(CutileCppBuildError, match="missing or older than the C[+][+] sources, and CUTILE_CPP_AUTOBUILD=0"):
        _library.ensure_built(root, build, [library], fake_build(library))


def test_mode_selection(monkeypatch):
    assert _library.source_root() is not None  # these tests run on the source tree
    monkeypatch.delenv("CUTILE_CPP_MODE", raising=False)
    assert _library.mode() == "development"
    monkeypatch.setenv("CUTILE_CPP_MODE", "debug")
    with pytest.raises(CutileCppError, match=r"CUTILE_CPP_MODE='debug': expected 'development' or 'release'"):
        _library.mode()
    monkeypatch.setenv("CUTILE_CPP_MODE", "release")
    assert _library.library_path() == Path(_library.__file__).parent / "lib" / _library.LIBRARY_NAME


def test_missing_release_library_is_a_clear_error(tmp_path):
    script = "import cutile_cpp\ntry:\n    cutile_cpp.load_library()\nexcept cutile_cpp.CutileCppError as e:\n    print(e)\n"
    env = dict(os.environ, CUTILE_CPP_LIBRARY=str(tmp_path / "nowhere.so"))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == f"{tmp_path / 'nowhere.so'} does not exist (mode development); build it or set CUTILE_CPP_LIBRARY"


def test_a_build_with_nothing_to_do_makes_the_library_current(tmp_path):
    # A header the library does not include is newer: the build system rebuilds nothing, and the library
    # must not stay stale (or every import would rebuild).
    root, build, library = make_tree(tmp_path)
    touch(library, 1000)
    touch(root / "capi" / "include" / "unused.hpp", 2000)
    assert _library.ensure_built(root, build, [library], [[sys.executable, "-c", "pass"]])
    assert not _library.is_stale([library], root)
