#!/usr/bin/env python3
"""An `nvcc` for TileGym's tilecpp backend on a machine without nvcc: serves the cubins of a pack built
ahead of time (scripts/tilecpp_pack.sh) and fails loudly on a compile the pack does not hold.

TileGym 1.5.1 compiles each CUDA Tile C++ kernel at its first call by running
`$TILECPP_NVCC_PATH -tilecubin -arch=sm_XX -std=c++20 --tile-only -o OUT.cubin -I DIR ... WRAPPER.cu`, where
WRAPPER.cu includes the kernel's header and instantiates one template; it checks `--version` for release
13.3 or newer before it uses the backend at all. Pointed at this file (TILECPP_NVCC_PATH), with
TILECPP_PACK_DIR naming a pack, it answers both:

  --version     the version text of the nvcc that built the pack
  a compile     the pack's cubin for that command, copied to the -o path; a compile that failed when the
                pack was built fails again with the same message; anything else is a miss: exit 2, one
                line on stderr naming the instantiation, and a line appended to $TILECPP_PACK_MISSES if set

The key of a compile is what decides its cubin and is the same on every machine: the flags other than
the output and include paths, the wrapper's text, and the SHA-256 of every header it includes by name
(found in the -I directories), so a pack made for another TileGym release misses instead of serving
stale code. With TILECPP_PACK_BUILD_NVCC naming a real nvcc, a miss is compiled by that nvcc and stored:
that is how scripts/tilecpp_pack.sh fills a pack. With TILECPP_PACK_BUILD_NVCC=list, a miss is only listed
(an entry without a cubin, "rc": null, and an empty output file): what a pack would hold, in seconds.

Pack layout: nvcc-version.txt, entries/<key>.json ({"arch", "headers", "instantiation", "rc", "stderr"}),
entries/<key>.cubin when the compile succeeded.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

VERSION_FILE = "nvcc-version.txt"
MISS_RC = 2


class Usage(Exception):
    pass


def parse(argv: list[str]) -> dict:
    """The parts of a TileGym compile command: flags (kept in order), output, include dirs, source."""
    flags, includes, output, sources = [], [], None, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "-I" and i + 1 < len(argv):
            includes.append(argv[i + 1])
            i += 2
            continue
        if arg == "-o" and i + 1 < len(argv):
            output = argv[i + 1]
            i += 2
            continue
        if arg.startswith("-I") and len(arg) > 2:
            includes.append(arg[2:])
        elif arg.startswith("-o") and len(arg) > 2:
            output = arg[2:]
        elif arg.endswith(".cu") and not arg.startswith("-"):
            sources.append(arg)
        else:
            flags.append(arg)
        i += 1
    if output is None or len(sources) != 1:
        raise Usage(f"expected one .cu source and -o OUTPUT, got: {' '.join(argv)}")
    return {"flags": flags, "includes": includes, "output": output, "source": sources[0]}


def included_headers(text: str, source: Path, includes: list[str]) -> dict[str, str]:
    """SHA-256 of every `#include "name"` of the wrapper, looked up as the compiler would: beside the
    source, then in the -I directories. An include that is not found is keyed as missing."""
    out = {}
    for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, flags=re.M):
        for directory in [source.parent, *map(Path, includes)]:
            candidate = directory / name
            if candidate.is_file():
                out[name] = hashlib.sha256(candidate.read_bytes()).hexdigest()
                break
        else:
            out[name] = "missing"
    return out


def instantiation(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("template ")]
    return " ".join(lines) if lines else "(no explicit instantiation)"


def arch(flags: list[str]) -> str:
    for flag in flags:
        if flag.startswith(("-arch=", "--gpu-architecture=")):
            return flag.split("=", 1)[1]
    return "?"


def describe(argv: list[str]) -> dict:
    """The key of a compile command and what the pack records beside it."""
    parts = parse(argv)
    source = Path(parts["source"])
    text = source.read_text()
    headers = included_headers(text, source, parts["includes"])
    material = json.dumps({"flags": parts["flags"], "source": text, "headers": headers}, sort_keys=True)
    return {"key": hashlib.sha256(material.encode()).hexdigest()[:32], "output": parts["output"],
            "arch": arch(parts["flags"]), "headers": headers, "instantiation": instantiation(text)}


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def build(pack: Path, nvcc: str, argv: list[str], info: dict) -> int:
    """Compiles with the real nvcc and stores the outcome (cubin, or the failure) under the key."""
    if nvcc == "list":
        Path(info["output"]).write_bytes(b"")
        entry = {k: info[k] for k in ("arch", "headers", "instantiation")}
        atomic_write(pack / "entries" / f"{info['key']}.json", (json.dumps(dict(entry, rc=None)) + "\n").encode())
        return 0
    result = subprocess.run([nvcc, *argv], capture_output=True, text=True)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    entry = {k: info[k] for k in ("arch", "headers", "instantiation")}
    entry.update(rc=result.returncode, stderr=result.stderr if result.returncode else "")
    if result.returncode == 0:
        atomic_write(pack / "entries" / f"{info['key']}.cubin", Path(info["output"]).read_bytes())
    atomic_write(pack / "entries" / f"{info['key']}.json", (json.dumps(entry, indent=1) + "\n").encode())
    version = pack / VERSION_FILE
    if not version.exists():
        atomic_write(version, subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True)
                     .stdout.encode())
    return result.returncode


def serve(pack: Path, info: dict) -> int:
    entries = pack / "entries"
    meta = entries / f"{info['key']}.json"
    entry = json.loads(meta.read_text()) if meta.is_file() else {"rc": None}
    if entry["rc"] is not None:
        if entry["rc"] != 0:  # failed when the pack was built: fail the same way
            sys.stderr.write(entry["stderr"])
            return entry["rc"]
        shutil.copyfile(entries / f"{info['key']}.cubin", info["output"])
        return 0
    headers = ", ".join(f"{name} {digest[:12]}" for name, digest in info["headers"].items())
    line = (f"tilecpp pack {pack} has no cubin for {info['arch']} `{info['instantiation']}` ({headers}; key "
            f"{info['key']}): scripts/tilecpp_pack.sh builds packs")
    misses = os.environ.get("TILECPP_PACK_MISSES")
    if misses:
        with open(misses, "a") as f:
            f.write(json.dumps({"key": info["key"], "arch": info["arch"], "instantiation": info["instantiation"],
                                "headers": info["headers"]}) + "\n")
    print(line, file=sys.stderr)
    return MISS_RC


def main(argv: list[str]) -> int:
    pack_dir = os.environ.get("TILECPP_PACK_DIR")
    if not pack_dir:
        print("tilecpp_nvcc: TILECPP_PACK_DIR is not set (the directory of a pack from scripts/tilecpp_pack.sh)",
              file=sys.stderr)
        return 1
    pack = Path(pack_dir)
    nvcc = os.environ.get("TILECPP_PACK_BUILD_NVCC")
    if argv[:1] in (["--version"], ["-V"]):
        version = pack / VERSION_FILE
        if nvcc == "list" and not version.exists():
            print("Cuda compilation tools, release 13.3 (listing only)")
            return 0
        if nvcc and not version.exists():
            return subprocess.run([nvcc, "--version"]).returncode
        if not version.is_file():
            print(f"tilecpp_nvcc: {version} is missing: {pack} is not a tilecpp pack", file=sys.stderr)
            return 1
        sys.stdout.write(version.read_text())
        return 0
    try:
        info = describe(argv)
    except (Usage, OSError) as error:
        print(f"tilecpp_nvcc: {error}", file=sys.stderr)
        return 1
    if nvcc and not (pack / "entries" / f"{info['key']}.json").is_file():
        return build(pack, nvcc, argv, info)
    return serve(pack, info)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
