"""The C ABI and Python rows of docs/reliability.md's bad-input table: each case is a misuse run here,
and its row holds the status (C ABI) or exception (Python) and the message it gave. The test fails if a
case is accepted, if the process is not usable after the cases, or if the committed rows differ
(CUTILE_REGENERATE_GOLDEN=1 rewrites them; review the diff)."""

from __future__ import annotations

import os
from pathlib import Path

import torch

import cutile_cpp
from support import last_error, ref

DOC = Path(__file__).resolve().parents[2] / "docs" / "reliability.md"
X = 0x100000  # a second, disjoint fake address, so that only the check under test fails


def abi_cases(abi, desc):
    """(case, call) pairs; each call returns a cutile_cpp_status. Fake addresses: the checks that fail
    come before any memory is touched."""

    def softmax(y, x, variant=0):
        return lambda: abi.cutile_cpp_softmax(ref(y), ref(x), variant, 0, 0, 0, None)

    def rms_norm(eps=1e-5, mode=0):
        y, rstd, x, w = desc([4, 8]), desc([4], data=0x300000), desc([4, 8], data=X), desc([8], data=0x200000)
        return lambda: abi.cutile_cpp_rms_norm(ref(y), ref(rstd), ref(x), ref(w), eps, 0.0, mode, 0, None)

    def dropout(p):
        return lambda: abi.cutile_cpp_dropout(ref(desc([8])), ref(desc([8], data=X)), 1, p, 0, None)

    misaligned = desc([4, 8], data=X + 2)
    bad_dtype = desc([4, 8], data=X)
    bad_dtype.dtype = 99
    n = 2**31
    return [
        ("null descriptor", softmax(None, desc([4, 8], data=X))),
        ("null data with elements", softmax(desc([4, 8]), desc([4, 8], data=0))),
        ("dtype code outside the enum", softmax(desc([4, 8]), bad_dtype)),
        ("data not aligned to its elements", softmax(desc([4, 8]), misaligned)),
        ("negative extent", softmax(desc([4, 8]), desc([4, -8], data=X))),
        ("extent whose byte size overflows int64", softmax(desc([4, 8]), desc([2**62, 8], data=X))),
        ("tensors on different devices", softmax(desc([4, 8], device="CPU"), desc([4, 8], data=X))),
        ("unsupported dtype", softmax(desc([4, 8], "I32"), desc([4, 8], "I32", data=X))),
        ("dtypes that differ", softmax(desc([4, 8]), desc([4, 8], "BF16", data=X))),
        ("rank other than the op's", softmax(desc([4, 8]), desc([32], data=X))),
        ("shape that breaks a relation", softmax(desc([4, 8]), desc([4, 16], data=X))),
        ("extent past the kernels' i32 indices",
         lambda: abi.cutile_cpp_vector_add(ref(desc([n])), ref(desc([n], data=2**40)), ref(desc([n], data=2**41)), 0, None)),
        ("output aliasing an input", softmax(desc([4, 8]), desc([4, 8]))),
        ("enum argument out of range", rms_norm(mode=7)),
        ("real scalar NaN", rms_norm(eps=float("nan"))),
        ("probability outside [0, 1]", dropout(1.5)),
        ("negative device id", lambda: abi.cutile_cpp_softmax(ref(desc([4, 8])), ref(desc([4, 8], data=X)), 0, 0, 0, -1, None)),
    ]


def python_cases():
    """(case, call) pairs of the torch ops on CPU tensors."""
    x, w = torch.randn(4, 8), torch.randn(8)
    huge = torch.zeros(1, dtype=torch.float16).expand(2**31 + 1)  # no memory behind it
    return [
        ("not a tensor", lambda: cutile_cpp.softmax([1.0, 2.0])),
        ("dtype no op takes", lambda: cutile_cpp.softmax(x.double())),
        ("dtype this op does not take", lambda: cutile_cpp.softmax(x.int())),
        ("rank other than the op's", lambda: cutile_cpp.softmax(torch.randn(2, 3, 4))),
        ("meta tensor", lambda: cutile_cpp.rms_norm(torch.zeros(4, 8, device="meta"), torch.zeros(8, device="meta"), 1e-5)),
        ("shape that breaks a relation", lambda: cutile_cpp.rms_norm(x, torch.randn(9), 1e-5)),
        ("dtypes that differ", lambda: cutile_cpp.rms_norm(x, w.half(), 1e-5)),
        ("eps NaN", lambda: cutile_cpp.rms_norm(x, w, float("nan"))),
        ("eps given as a string", lambda: cutile_cpp.rms_norm(x, w, "1e-6")),
        ("mode that is not one of the op's", lambda: cutile_cpp.rms_norm(x, w, 1e-5, mode="fast")),
        ("dropout p of -0.5", lambda: cutile_cpp.dropout(torch.rand(4), 1, -0.5)),
        ("dropout p of inf", lambda: cutile_cpp.dropout(torch.rand(4), 1, float("inf"))),
        ("seed given as a float", lambda: cutile_cpp.dropout(torch.rand(4), 1.5)),
        ("output aliasing the input", lambda: cutile_cpp.rms_norm(x, w, 1e-5, y=x)),
        ("output of the wrong shape", lambda: cutile_cpp.dropout(torch.rand(8), 1, y=torch.empty(7))),
        ("extent past i32 (refused before any output is allocated)", lambda: cutile_cpp.relu(huge)),
    ]


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def abi_table(abi, desc) -> str:
    names = {code: name for name, code in abi.enums["cutile_cpp_status"].items()}
    rows = ["| case | status | message |", "|---|---|---|"]
    for case, call in abi_cases(abi, desc):
        code = call()
        assert code != abi.enums["cutile_cpp_status"]["CUTILE_CPP_OK"], f"{case}: accepted"
        rows.append(f"| {case} | `{names[code]}` | {cell(last_error(abi))} |")
    return "\n".join(rows) + "\n"


def python_table() -> str:
    rows = ["| case | exception | message |", "|---|---|---|"]
    for case, call in python_cases():
        try:
            call()
        except (TypeError, ValueError) as error:
            rows.append(f"| {case} | `{type(error).__name__}` | {cell(str(error))} |")
        else:
            raise AssertionError(f"{case}: accepted")
    return "\n".join(rows) + "\n"


def with_section(doc: str, layer: str, body: str) -> str:
    begin, end = f"<!-- bad-input {layer} begin -->", f"<!-- bad-input {layer} end -->"
    assert begin in doc and end in doc, f"{DOC} lacks the markers {begin} and {end}"
    head, rest = doc.split(begin, 1)
    return head + begin + "\n" + body + end + rest.split(end, 1)[1]


def test_every_abi_and_python_misuse_is_refused_with_the_committed_message(abi, desc):
    committed = DOC.read_text()
    doc = with_section(committed, "C ABI", abi_table(abi, desc))
    doc = with_section(doc, "Python", python_table())
    # The process is intact: a good call still computes.
    a = torch.randn(1000)
    torch.testing.assert_close(cutile_cpp.relu(a), a.clamp_min(0))
    if os.environ.get("CUTILE_REGENERATE_GOLDEN"):
        DOC.write_text(doc)
    assert doc == committed, f"the C ABI or Python rows of {DOC} differ; CUTILE_REGENERATE_GOLDEN=1 rewrites them"
