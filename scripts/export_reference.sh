#!/usr/bin/env bash
# Exports cuTile Python's Tile IR bytecode for a TileGym op (tools/reference/export.py), first installing
# the two packages it needs, from PyPI, into <repo>/.cache/reference/python: cuda-tile (cuTile Python)
# and tilegym without its dependencies, so no PyTorch, transformers or CUDA libraries. No GPU needed.
# Installing again with the same versions does nothing.
#   usage: scripts/export_reference.sh OP [--config KEY=VALUE ...] --out DIR   (see export.py --help)
#          scripts/export_reference.sh --setup     only install; prints the directory to put on PYTHONPATH
set -euo pipefail

CUDA_TILE_VERSION=1.7.0
TILEGYM_VERSION=1.5.1

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$repo/.cache/reference
site=$prefix/python
stamp=$prefix/installed-versions
want="cuda-tile==$CUDA_TILE_VERSION tilegym==$TILEGYM_VERSION $(python3 -c 'import sys; print(sys.implementation.cache_tag)')"

if [[ ! -f $stamp || $(<"$stamp") != "$want" ]]; then
  echo "installing cuda-tile $CUDA_TILE_VERSION and tilegym $TILEGYM_VERSION (no dependencies) into $site" >&2
  rm -rf "$site" "$stamp"
  mkdir -p "$prefix"
  # Separate installs: cuda-tile with its one dependency (typing-extensions); tilegym alone, because its
  # dependencies (transformers, cuda-bindings, ...) are for running ops, not for exporting kernels.
  pip=(python3 -m pip install --quiet --disable-pip-version-check --target "$site")
  PIP_ROOT_USER_ACTION=ignore "${pip[@]}" "cuda-tile==$CUDA_TILE_VERSION" >&2
  PIP_ROOT_USER_ACTION=ignore "${pip[@]}" --no-deps "tilegym==$TILEGYM_VERSION" >&2
  PYTHONPATH=$site python3 -c 'import cuda.tile.compilation' ||
    { echo "error: cuda.tile does not import from $site after the install" >&2; exit 1; }
  echo "$want" > "$stamp"
fi

if [[ ${1:-} == --setup ]]; then
  echo "$site"
  exit 0
fi
PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH} exec python3 "$repo/tools/reference/export.py" "$@"
