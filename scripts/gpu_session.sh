#!/usr/bin/env bash
# One full check on a GPU machine that has no network: builds the project, runs the gpu test tier,
# runs the example kernels through the C++ runtime, and checks the AOT cubins against PyTorch.
#   usage: scripts/gpu_session.sh PACK_DIR OUT_DIR
# PACK_DIR may hold: tc.tar.xz (tileiras, ptxas, libNVVM under nvidia/cu13/), googletest.tar.xz (sources,
# used when no GoogleTest is installed), aot/ (cubins and manifest.json from `cutile-examples --aot`).
# Logs go to OUT_DIR; a short table is printed last.
set -uo pipefail
pack=$(cd "$1" && pwd)
out=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$out" /tmp/cutile-gpu
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [[ -f $pack/tc.tar.xz ]]; then
  tar -C /tmp/cutile-gpu -xJf "$pack/tc.tar.xz"
  export CUTILE_TOOLCHAIN_DIR=/tmp/cutile-gpu
  mkdir -p /tmp/cutile-gpu/python && mv /tmp/cutile-gpu/nvidia /tmp/cutile-gpu/python/
fi
if [[ -f $pack/googletest.tar.xz ]]; then
  tar -C /tmp/cutile-gpu -xJf "$pack/googletest.tar.xz"
  cmake_args+=(-DCUTILE_GTEST_SOURCE_DIR=/tmp/cutile-gpu/googletest)
fi
cmake -S "$repo" -B /tmp/cutile-gpu/build "${cmake_args[@]}" >"$out/cmake.log" 2>&1 || { tail -20 "$out/cmake.log"; exit 1; }
cmake --build /tmp/cutile-gpu/build -j"$(nproc)" >"$out/build.log" 2>&1 || { grep -m20 error "$out/build.log"; exit 1; }
build=/tmp/cutile-gpu/build
"$build/tools/cutile" doctor | tee "$out/doctor.txt"
(cd "$build" && ctest -L gpu --output-on-failure -V) >"$out/ctest_gpu.log" 2>&1
gpu_tests=$(grep -E "tests passed|tests failed" "$out/ctest_gpu.log")
"$build/examples/cutile-examples" >"$out/examples_tileiras.log" 2>&1
examples_rc=$?
if [[ -d $pack/aot ]]; then
  "$build/examples/cutile-examples" --cubins "$pack/aot" >"$out/examples_aot.log" 2>&1
  python3 "$repo/scripts/gpu_check.py" "$pack/aot" --json "$out/gpu_check.json" >"$out/gpu_check.log" 2>&1
  torch_rc=$?
fi
echo "== gpu test tier: $gpu_tests"
echo "== examples compiled here by tileiras, run by the C++ runtime (exit $examples_rc):"
tail -n +4 "$out/examples_tileiras.log"
[[ -d $pack/aot ]] && { echo "== AOT cubins against PyTorch (exit $torch_rc):"; tail -n 25 "$out/gpu_check.log"; }
