"""Exceptions of the cutile_cpp package."""

from __future__ import annotations


class CutileCppError(RuntimeError):
    """A call into libcutile_cpp_kernels.so failed: `status` is the cutile_cpp_status code, `status_name`
    its name (e.g. "CUTILE_CPP_ERROR_ALIASING"); the message is the library's."""

    def __init__(self, message: str, status: int | None = None, status_name: str | None = None):
        super().__init__(f"[{status_name}] {message}" if status_name else message)
        self.status = status
        self.status_name = status_name


class CutileCppTypeError(CutileCppError, TypeError):
    """The library refused an argument's dtype (UNSUPPORTED_DTYPE, DTYPE_MISMATCH)."""


class CutileCppValueError(CutileCppError, ValueError):
    """The library refused an argument's value: descriptor, rank, shape, device, aliasing, parameter."""


class CutileCppBuildError(CutileCppError):
    """The development-mode rebuild of the library failed."""
