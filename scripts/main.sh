#!/usr/bin/env bash
# The main job: installs tileiras if it is missing, builds, then runs the example kernels — on the GPU
# when there is one (checked against a float64 CPU reference), else compiled for sm_90 only.
# Extra arguments go to cutile-examples (--print-ir, --aot DIR).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
scripts/install_toolchain.sh >/dev/null
cmake --preset default >/dev/null
cmake --build build -j"$(nproc)" --target cutile-examples cutile
build/tools/cutile doctor
build/examples/cutile-examples "$@"
