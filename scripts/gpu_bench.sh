#!/usr/bin/env bash
# The op benchmarks and the python GPU tests on a GPU machine without network (torch and triton
# preinstalled), in a fixed wall-time budget (default 510 s): sets up cuTile Python's and our tileiras
# from the carried pack, builds libcutile_cpp_kernels.so, runs bench/ops/run.py over every op (quick
# configurations first, then the rest round-robin until its time share is spent), then every
# tests/python/test_*.py with JUnit XML, and plots the report.
#   usage: scripts/gpu_bench.sh PACK_DIR OUT_DIR
# PACK_DIR holds tc.tar.xz (tileiras, ptxas, libNVVM; as for scripts/gpu_python_check.sh) and wheels/
# (scripts/gpu_python_pack.sh: tilegym, cuda-tile, pytest); optionally tilecpp.tar.xz, TileGym's CUDA Tile
# C++ kernels compiled ahead of time (scripts/tilecpp_pack.sh, which also puts cuda-core in wheels/):
# without it the tilecpp backend is recorded as unavailable, with the reason. OUT_DIR gets bench.json (the report), plots/
# (one PNG per op family) and logs.tgz (every log, pytest.xml, the toolchain check); the summary table is
# printed last.
# Environment: BENCH_TOTAL_S (510), BENCH_PYTEST_S (150: pytest's share; 0 skips the tests),
# BENCH_FIRST_CALL_S (45: each of the two first-call processes; 0 skips them), BENCH_ARGS (extra run.py
# arguments, e.g. "--quick" or "--op softmax"), BENCH_PYTEST_FILES (names in tests/python to run instead
# of every test file). A benchmark-only call for the full set:
#   BENCH_PYTEST_S=0 BENCH_FIRST_CALL_S=0 scripts/gpu_bench.sh PACK_DIR OUT_DIR
# A failing op, build or test never stops the script before bench.json and logs.tgz are written.
set -uo pipefail
SECONDS=0
total=${BENCH_TOTAL_S:-510}
pytest_s=${BENCH_PYTEST_S:-150}
first_call_s=${BENCH_FIRST_CALL_S:-45}
pack=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/scripts/gpu_common.sh"
work=/tmp/cutile-bench
logs=$work/logs
rm -rf "$logs" && mkdir -p "$work" "$logs"
step() { echo "[$SECONDS s] $*" | tee -a "$logs/steps.txt"; }

finish() {  # writes what exists so far and the summary; called on every exit path
  [[ -f $out/bench.json ]] || echo '{"error": "the harness wrote no report; see logs.tgz (bench.log)"}' >"$out/bench.json"
  grep -q '"partial": true' "$out/bench.json" &&
    python3 "$repo/bench/ops/run.py" --finalize --out "$out/bench.json" >/dev/null 2>>"$logs/bench.log"
  cp "$out/bench.json" "$logs/" 2>/dev/null
  if [[ -f $logs/pytest.log ]]; then
    echo "--- pytest (tail)"
    tail -n 15 "$logs/pytest.log"
    echo
    python3 - "$logs/pytest.xml" <<'PY' 2>&1 | tee "$logs/pytest_summary.txt"
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    print("pytest:", {k: int(suite.get(k)) for k in ("tests", "failures", "errors", "skipped")})
    for case in suite.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            print("  FAILED", case.get("classname") + "::" + case.get("name"))
except (OSError, ET.ParseError, AttributeError, TypeError) as e:
    print("pytest: no JUnit XML:", e)
PY
  fi
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r.get("table") or r)' "$out/bench.json" \
    >"$logs/table.txt" 2>&1
  step "done"
  tar -C "$logs" -czf "$out/logs.tgz" .
  echo "--- bench summary"
  cat "$logs/table.txt"
}
trap finish EXIT

step "gpu"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$logs/gpu.txt"

# Python packages from the carried wheels (tilegym, cuda-tile; pytest if the machine lacks it).
site=$work/site
export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
if [[ -d $pack/wheels ]]; then
  wanted=(tilegym cuda-tile)
  python3 -c 'import pytest' 2>/dev/null || wanted+=(pytest iniconfig pluggy packaging)
  python3 -m pip install --quiet --no-index --find-links "$pack/wheels" --target "$site" --no-deps "${wanted[@]}" \
    >"$logs/pip.log" 2>&1 || step "pip install failed (see pip.log)"
fi

# TileGym's tilecpp backend: its nvcc is bench/ops/tilecpp_nvcc.py serving the pack's cubins; a compile
# the pack lacks is an error in the report and a line in tilecpp_misses.jsonl.
if [[ -f $pack/tilecpp.tar.xz ]]; then
  step "unpacking the tilecpp pack"
  rm -rf "$work/tilecpp-pack" && mkdir -p "$work/tilecpp-pack" && tar -C "$work/tilecpp-pack" -xJf "$pack/tilecpp.tar.xz"
  export TILECPP_PACK_DIR=$work/tilecpp-pack/tilecpp TILECPP_CACHE_DIR=$work/tilecpp-cache
  export TILECPP_PACK_MISSES=$logs/tilecpp_misses.jsonl
  : >"$TILECPP_PACK_MISSES"
  if ! python3 -c 'import cuda.core' 2>/dev/null; then
    python3 -m pip install --quiet --no-index --find-links "$pack/wheels" --target "$site" --no-deps cuda-core \
      cuda-pathfinder >>"$logs/pip.log" 2>&1 || step "cuda-core install failed (see pip.log)"
  fi
  step "tilecpp: $(python3 -c 'import cuda.core; print("cuda.core", cuda.core.__version__)' 2>&1 | tail -1)," \
    "$(find "$TILECPP_PACK_DIR/entries" -name '*.cubin' | wc -l) cubins"
else
  step "no $pack/tilecpp.tar.xz: the tilecpp backend will be recorded as unavailable (scripts/tilecpp_pack.sh)"
fi

# tileiras + ptxas + libNVVM, for our library (CUTILE_TOOLCHAIN_DIR) and cuTile Python (tileiras on PATH).
step "unpacking the toolchain"
if unpack_toolchain "$pack" "$work"; then
  tileiras_on_path "$repo" "$work"
else
  step "no $pack/tc.tar.xz: our kernels and cuTile Python need tileiras; expect them to be unavailable"
fi
export CUTILE_CACHE_DIR=$work/cache CUDA_TILE_CACHE_DIR=$work/cutile-python-cache TRITON_CACHE_DIR=$work/triton-cache
python3 "$repo/bench/ops/cutile_toolchain.py" >"$logs/cutile_toolchain.json" 2>&1
step "cuTile Python toolchain: $(tr -d '\n' <"$logs/cutile_toolchain.json" | head -c 300)"

step "building libcutile_cpp_kernels.so"
build=${CUTILE_GPU_BUILD_DIR:-$work/build}  # shared by the GPU scripts of one call
configure_build "$repo" "$build" "$logs/cmake.log" -DCMAKE_BUILD_TYPE=Release -DCUTILE_BUILD_TESTS=OFF \
  -DCUTILE_PYTHON="$(command -v python3)" &&
  cmake --build "$build" -j"$(nproc)" --target cutile_cpp_kernels cutile_cpp_native >"$logs/build.log" 2>&1 ||
  step "the build failed (cmake.log, build.log): cutile-cpp will be recorded as unavailable"
export CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build PYTHONPATH=$repo/python:$PYTHONPATH

# The harness gets what is left after reserving pytest's share, the first-call processes and a margin. If
# its process dies (a crash in a kernel or a library), it is resumed from its checkpoint: the configuration
# that was running is recorded as having killed it, and the rest are measured.
harness_budget() { local b=$((total - SECONDS - pytest_s - 2 * first_call_s - 45)); echo $((b < 30 ? 30 : b)); }
resume=()
first_call=(--first-call-timeout-s "$first_call_s")
((first_call_s > 0)) || first_call=(--no-first-call)
for attempt in 1 2 3; do
  budget=$(harness_budget)
  step "benchmarks${resume:+ (resumed)}: configurations started within $budget s"
  # shellcheck disable=SC2086  # BENCH_ARGS is a list of arguments
  timeout -k 10 $((budget + 2 * first_call_s + 40)) python3 "$repo/bench/ops/run.py" "${resume[@]}" "${first_call[@]}" \
    --budget-s "$budget" --out "$out/bench.json" ${BENCH_ARGS:-} \
    >"$logs/bench_table.txt" 2>>"$logs/bench.log"
  rc=$?
  step "run.py exit $rc"
  ((rc == 0 || rc == 124 || rc == 137)) && break
  grep -q '"partial": true' "$out/bench.json" 2>/dev/null || break
  ((total - SECONDS - pytest_s - 2 * first_call_s - 45 < 30)) && break
  resume=(--resume)
done
python3 "$repo/bench/ops/plot.py" "$out/bench.json" --out "$out/plots" >"$logs/plot.log" 2>&1 || step "plot failed (plot.log)"
cp -r "$out/plots" "$logs/" 2>/dev/null

if ((pytest_s <= 0)); then
  step "python tests skipped (BENCH_PYTEST_S=0)"
  exit 0
fi
left=$((total - SECONDS - 15))
((left > pytest_s)) && left=$pytest_s
((left < 30)) && left=30
step "python tests (timeout $left s)"
# Every test file, the harness's own last (the ops' tests come first if time runs short). SIGINT first at
# the limit: pytest stops like on Ctrl-C and still writes the JUnit XML of the tests that ran.
if [[ -n ${BENCH_PYTEST_FILES:-} ]]; then
  test_files=()
  for name in $BENCH_PYTEST_FILES; do test_files+=("$repo/tests/python/$name"); done
else
  mapfile -t test_files < <(ls "$repo"/tests/python/test_*.py | grep -v test_bench_harness.py)
  test_files+=("$repo/tests/python/test_bench_harness.py")
fi
timeout -s INT -k 10 "$left" python3 -m pytest -rs -p no:cacheprovider --junitxml="$logs/pytest.xml" \
  "${test_files[@]}" >"$logs/pytest.log" 2>&1
step "pytest exit $? (124: timed out; 2: interrupted by the time limit or errors)"
