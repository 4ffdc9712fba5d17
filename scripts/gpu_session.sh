#!/usr/bin/env bash
# One full check on a GPU machine that has no network: builds the project, runs the gpu test tier, the
# ladder of examples and the softmax benchmark.
#   usage: scripts/gpu_session.sh PACK_DIR OUT_DIR
# PACK_DIR may hold: tc.tar.xz (tileiras, ptxas, libNVVM under nvidia/cu13/), googletest.tar.xz (sources,
# used when no GoogleTest is installed), cache/ (a cubin cache filled ahead of time on a machine without a
# GPU: `CUTILE_CACHE_DIR=PACK_DIR/cache build/examples/10_ahead_of_time sm_90 sm_100`). Logs go to OUT_DIR;
# a short summary is printed last.
set -uo pipefail
pack=$(cd "$1" && pwd)
out=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=/tmp/cutile-gpu
mkdir -p "$out" "$work"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

cmake_args=(-DCMAKE_BUILD_TYPE=Release)
if [[ -f $pack/googletest.tar.xz ]]; then
  tar -C "$work" -xJf "$pack/googletest.tar.xz"
  cmake_args+=(-DCUTILE_GTEST_SOURCE_DIR=$work/googletest)
fi
cmake -S "$repo" -B "$work/build" "${cmake_args[@]}" >"$out/cmake.log" 2>&1 || { tail -20 "$out/cmake.log"; exit 1; }
cmake --build "$work/build" -j"$(nproc)" >"$out/build.log" 2>&1 || { grep -m20 error "$out/build.log"; exit 1; }
build=$work/build

# 1. Without tileiras: rung 10 launches from the cubin cache compiled elsewhere.
if [[ -d $pack/cache ]]; then
  cp -r "$pack/cache" "$work/aot-cache"
  CUTILE_TILEIRAS=/nonexistent CUTILE_CACHE_DIR=$work/aot-cache "$build/examples/10_ahead_of_time" \
    >"$out/ahead_of_time.log" 2>&1
  echo "rung 10 from the AOT cache, no tileiras: exit $?" >>"$out/summary.txt"
fi

# 2. With tileiras carried in.
if [[ -f $pack/tc.tar.xz ]]; then
  tar -C "$work" -xJf "$pack/tc.tar.xz"
  mkdir -p "$work/toolchain/python" && mv "$work/nvidia" "$work/toolchain/python/"
  export CUTILE_TOOLCHAIN_DIR=$work/toolchain
fi
export CUTILE_CACHE_DIR=$work/cache
"$build/tools/cutile" doctor >"$out/doctor.txt" 2>&1
(cd "$build" && ctest -L gpu --output-on-failure) >"$out/ctest_gpu.log" 2>&1
echo "gpu test tier: $(grep -E 'tests passed|tests failed' "$out/ctest_gpu.log")" >>"$out/summary.txt"
for dir in "$repo"/examples/[0-9][0-9]_*/; do
  rung=$(basename "$dir")
  "$build/examples/$rung" >"$out/example_$rung.log" 2>&1
  echo "example $rung (tileiras here): exit $?" >>"$out/summary.txt"
done
{ "$build/bench/cutile-bench-softmax" && python3 "$repo/bench/torch_softmax.py"; } >"$out/bench.jsonl" 2>&1

cat "$out/summary.txt"
[[ -f $out/ahead_of_time.log ]] && { echo "-- rung 10 from the AOT cache:"; cat "$out/ahead_of_time.log"; }
cat "$out/bench.jsonl"
# Everything in one archive: the device tool brings back a handful of files only.
tar -C "$out" -czf /tmp/cutile-gpu-logs.tgz . && rm -rf "${out:?}"/* && mv /tmp/cutile-gpu-logs.tgz "$out/logs.tgz"
