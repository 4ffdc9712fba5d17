#!/usr/bin/env bash
# The main job: installs tileiras if it is missing, builds the target main_job (the tools, the examples,
# and everything `cmake --install` and the Python package of this tree use; not the test tiers), then runs
# the ladder of examples (examples/NN_*). Each rung checks its kernels against float64 on the host — on
# the GPU when there is one, else on the CPU interpreter — printing every check's tolerance and where the
# cubins went.
#   scripts/main.sh [RUNG...]   only the rungs named, e.g. `scripts/main.sh 03_tiled_gemm`
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
scripts/install_toolchain.sh >/dev/null
cmake --preset default >/dev/null
cmake --build build -j"$(nproc)" --target main_job
build/tools/cutile doctor

rungs=("$@")
if (( ${#rungs[@]} == 0 )); then
  for dir in examples/[0-9][0-9]_*/; do rungs+=("$(basename "$dir")"); done
fi
failed=()
for rung in "${rungs[@]}"; do
  printf '\n== %s\n' "$rung"
  "build/examples/$rung" || failed+=("$rung")
done
echo
if (( ${#failed[@]} )); then
  echo "failed: ${failed[*]}"
  exit 1
fi
echo "${#rungs[@]} rungs passed"
