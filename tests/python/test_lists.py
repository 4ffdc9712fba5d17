"""Lists of tensors through the package: an op whose arguments are lists, the test op scale_groups
(tests/list_op), which only the test library libcutile_cpp_list_test.so has. Its cases (list_op/cases.py)
run in a process of their own that loads that library (CUTILE_CPP_LIBRARY), on the CPU interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cutile_cpp
from cutile_cpp import _library

CASES = Path(__file__).resolve().parent / "list_op" / "cases.py"


def test_an_op_of_lists_in_its_own_library():
    build = _library.build_dir()
    library = build / "tests" / "libcutile_cpp_list_test.so"
    _library.ensure_built(_library.source_root(), build, [library],
                          [["cmake", "--build", str(build), "--target", "cutile_cpp_list_test"]])
    package = str(Path(cutile_cpp.__file__).resolve().parents[1])
    env = dict(os.environ, CUTILE_CPP_LIBRARY=str(library),
               PYTHONPATH=os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(CASES)], env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-4000:]
