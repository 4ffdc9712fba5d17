#!/usr/bin/env bash
# The autotuner on a GPU machine without network: unpacks tileiras from the pack, builds cutile-ops and
# runs `cutile-ops tune OP CONFIG...` on GPU 0. The records go to OUT_DIR/<op>.jsonl, which starts as a copy
# of this tree's tuning/<op>.jsonl, so configurations already recorded for this GPU and tileiras are skipped
# and a cut-off run resumes in the next call; copy the file back into tuning/ to commit it.
#   usage: scripts/gpu_tune.sh PACK_DIR OUT_DIR OP CONFIG [CONFIG...]
# PACK_DIR holds tc.tar.xz (tileiras, ptxas, libNVVM; docs/benchmarks.md). CUTILE_GPU_BUILD_DIR shares the
# build with the other GPU scripts of one call; TUNE_RUNS (50) is the timed calls per point.
set -uo pipefail
(($# >= 4)) || { echo "usage: $0 PACK_DIR OUT_DIR OP CONFIG [CONFIG...]" >&2; exit 2; }
pack=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
op=$3
shift 3
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/scripts/gpu_common.sh"
work=/tmp/cutile-tune
mkdir -p "$work"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"

unpack_toolchain "$pack" "$work" || { echo "cannot unpack $pack/tc.tar.xz" >&2; exit 1; }
export CUTILE_CACHE_DIR=$work/cache

build=${CUTILE_GPU_BUILD_DIR:-$work/build}
configure_build "$repo" "$build" "$out/cmake.log" -DCMAKE_BUILD_TYPE=Release -DCUTILE_BUILD_TESTS=OFF \
  -DCUTILE_PYTHON="$(command -v python3)" &&
  cmake --build "$build" -j"$(nproc)" --target cutile-ops >"$out/build.log" 2>&1 ||
  { tail -n 20 "$out/cmake.log"; tail -n 20 "$out/build.log" 2>/dev/null; exit 1; }

records=$out/$op.jsonl
[[ -f $repo/tuning/$op.jsonl ]] && cp "$repo/tuning/$op.jsonl" "$records"
"$build/tools/cutile-ops/cutile-ops" tune "$op" "$@" --out "$records" --jobs "$(nproc)" --runs "${TUNE_RUNS:-50}" \
  2>&1 | tee "$out/tune.log"
status=${PIPESTATUS[0]}
echo "--- $records: $(wc -l <"$records" 2>/dev/null || echo 0) records (exit $status)"
exit "$status"
