#!/usr/bin/env bash
# Installs tileiras if it is missing (the aot tier needs it) and the python tier's environment (torch,
# pytest, tilegym: scripts/python_env.sh), configures with the default preset, builds everything, and runs
# every test tier, the ladder of examples on the CPU interpreter included (label examples). The gpu tier
# skips itself, with the reason, on machines without a CUDA driver and GPU. The full build log is in
# build/build.log and is printed only when the build fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install_toolchain.sh > /dev/null
python=$(scripts/python_env.sh)

cmake --preset default --log-level=WARNING -DCUTILE_PYTHON="$python"
if ! cmake --build --preset default --parallel "$(nproc)" > build/build.log 2>&1; then
  tail -n 200 build/build.log
  echo "build failed; full log: build/build.log" >&2
  exit 1
fi
echo "build ok (log: build/build.log)"
ctest --preset default --parallel "$(nproc)"
