#!/usr/bin/env bash
# The main job: installs tileiras if it is missing, builds, then runs the example kernels — on the GPU
# when there is one (checked against float64 on the host), else compiled ahead of time for sm_90 (the
# CPU interpreter that will run them without a GPU is not built yet).
#   cutile-examples      kernels built directly with the IR builder (extra arguments go to it)
#   cutile-dsl-examples  kernels written in the tile DSL, launched through cutile::launch
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
scripts/install_toolchain.sh >/dev/null
cmake --preset default >/dev/null
cmake --build build -j"$(nproc)" --target cutile cutile-examples cutile-dsl-examples
build/tools/cutile doctor
build/examples/cutile-examples "$@"
echo
build/examples/cutile-dsl-examples
