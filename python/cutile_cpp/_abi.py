"""The ctypes binding of libcutile_cpp_kernels.so, built from its C header.

The header (capi/include/cutile_cpp/kernels.h) is the single source of truth for the boundary: this module
parses its integer #defines, enums, the descriptor struct and the CUTILE_CPP_API prototypes, and declares
exactly those to ctypes. The parser knows only the constructs the header uses and refuses anything else,
so a header change it cannot follow fails loudly instead of binding wrongly.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

_SCALARS = {
    "void": None,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "double": ctypes.c_double,
    "void*": ctypes.c_void_p,
    "const char*": ctypes.c_char_p,
}


class HeaderError(ValueError):
    """The header uses a construct this parser does not bind."""


@dataclass
class Header:
    constants: dict[str, int] = field(default_factory=dict)
    enums: dict[str, dict[str, int]] = field(default_factory=dict)
    structs: dict[str, list[tuple[str, str, int | None]]] = field(default_factory=dict)  # (type, name, length)
    unions: set[str] = field(default_factory=set)  # the names in `structs` that are unions
    functions: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # name -> (result, param types)


def _normalise_type(text: str) -> str:
    return re.sub(r"\s*\*", "*", " ".join(text.split()))


def parse_header(text: str) -> Header:
    """The declarations of a cutile_cpp C header."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    header = Header()
    for name, value in re.findall(r"^\s*#define\s+(\w+)\s+(-?\d+)\s*$", text, flags=re.M):
        header.constants[name] = int(value)
    for tag, body, name in re.findall(r"typedef\s+enum\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S):
        entries = {}
        for item in filter(None, (part.strip() for part in body.split(","))):
            match = re.fullmatch(r"(\w+)\s*=\s*(-?\d+)", item)
            if not match:
                raise HeaderError(f"enum {name}: entry {item!r} has no explicit integer value")
            entries[match[1]] = int(match[2])
        header.enums[name] = entries
    for kind, tag, body, name in re.findall(r"typedef\s+(struct|union)\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S):
        fields = []
        for item in filter(None, (part.strip() for part in body.split(";"))):
            match = re.fullmatch(r"([\w\s\*]+?)\s*\b(\w+)\s*(?:\[(\w+)\])?", item)
            if not match:
                raise HeaderError(f"struct {name}: cannot read field {item!r}")
            length = match[3]
            if length is not None:
                length = int(length) if length.isdigit() else header.constants[length]
            fields.append((_normalise_type(match[1]), match[2], length))
        header.structs[name] = fields
        if kind == "union":
            header.unions.add(name)
    for result, name, params in re.findall(r"CUTILE_CPP_API\s+([\w\s\*]+?)\s*\b(\w+)\s*\(([^)]*)\)\s*;", text):
        types = []
        if params.strip() != "void":
            for param in params.split(","):
                match = re.fullmatch(r"\s*([\w\s\*]+?)\s*\b(\w+)\s*", param)
                if not match:
                    raise HeaderError(f"{name}: cannot read parameter {param!r}")
                types.append(_normalise_type(match[1]))
        header.functions[name] = (_normalise_type(result), types)
    if not header.functions:
        raise HeaderError("no CUTILE_CPP_API functions found")
    return header


class Binding:
    """A loaded library with the header's declarations: `structs` (unions too), `constants`, enum values in
    `enums[name]`, and each function as an attribute."""

    def __init__(self, header: Header, library: ctypes.CDLL):
        self.header = header
        self.constants = dict(header.constants)
        self.enums = {name: dict(values) for name, values in header.enums.items()}
        self.structs: dict[str, type[ctypes.Structure]] = {}
        for name, fields in header.structs.items():
            ctypes_fields = []
            for type_name, field_name, length in fields:
                base = self._ctype(type_name)
                ctypes_fields.append((field_name, base * length if length is not None else base))
            base_class = ctypes.Union if name in header.unions else ctypes.Structure
            self.structs[name] = type(name, (base_class,), {"_fields_": ctypes_fields})
        for name, (result, params) in header.functions.items():
            restype, argtypes = self._ctype(result), [self._ctype(p) for p in params]
            function = getattr(library, name)
            function.restype, function.argtypes = restype, argtypes
            setattr(self, name, function)

    def _ctype(self, type_name: str):
        if type_name in _SCALARS:
            return _SCALARS[type_name]
        pointee = re.fullmatch(r"(?:const )?(\w+)\*", type_name)
        if pointee and pointee[1] in self.structs:
            return ctypes.POINTER(self.structs[pointee[1]])
        if pointee and pointee[1] in ("int32_t", "int64_t"):
            return ctypes.POINTER(_SCALARS[pointee[1]])
        pointee = re.fullmatch(r"(?:const )?(\w+)\* ?(?:const)?\*", type_name)
        if pointee and pointee[1] in self.structs:
            return ctypes.POINTER(ctypes.POINTER(self.structs[pointee[1]]))
        raise HeaderError(f"type {type_name!r} has no ctypes binding")
