"""How the benchmark report records an error: the first line of its message, at most 400 characters."""

from __future__ import annotations


def first_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".strip()
    return text.splitlines()[0][:400] if text else type(error).__name__
