#!/usr/bin/env bash
# Fills PACK_DIR/wheels, on a machine with network, with what scripts/gpu_python_check.sh installs on
# the GPU machine (which has torch but no network): pytest and its dependencies, tilegym 1.5.1 and
# cuda-tile 1.7.0 (for CPython 3.10 to 3.13); given a TileGym git directory, TileGym's own tests too
# (PACK_DIR/tilegym/tests: its op tests and benchmark scripts, which gpu_python_check.sh runs against our
# backend).
#   usage: scripts/gpu_python_pack.sh PACK_DIR [TILEGYM_GIT_DIR]
set -euo pipefail
wheels=$1/wheels
mkdir -p "$wheels"
download=(python3 -m pip download --quiet --disable-pip-version-check --dest "$wheels")
"${download[@]}" --no-deps pytest iniconfig pluggy packaging "tilegym==1.5.1" typing_extensions
for version in 3.10 3.11 3.12 3.13; do
  "${download[@]}" --no-deps --only-binary=:all: --python-version "$version" "cuda-tile==1.7.0"
done
ls "$wheels"
if [[ $# -ge 2 ]]; then
  rm -rf "$1/tilegym" && mkdir -p "$1/tilegym"
  git --git-dir "$2" archive HEAD tests/__init__.py tests/common.py tests/config.py tests/conftest.py tests/ops \
    tests/benchmark |
    tar -x -C "$1/tilegym"
  echo "TileGym tests at $(git --git-dir "$2" log -1 --format='%h %cs')" | tee "$1/tilegym/VERSION"
fi
