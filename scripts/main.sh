#!/usr/bin/env bash
# The main job: installs tileiras if it is missing, builds, then runs the example kernels and checks them
# against float64 on the host — on the GPU when there is one, else on the CPU interpreter (and compiles
# them ahead of time for sm_90).
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
