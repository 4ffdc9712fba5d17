#!/usr/bin/env bash
# The bridges on a GPU machine without network (torch preinstalled): builds the C ABI library and the
# launch-overhead benchmark, runs TileGym's own tests of the ported ops with backend "cutile-cpp" (where
# the pack has them), the python test tier (C ABI statuses, torch round trips on every GPU, torch.compile,
# the TileGym plugin) in the wall time left of BRIDGES_TOTAL_S (540), and the launch-overhead benchmarks
# from C++ and Python.
#   usage: scripts/gpu_python_check.sh PACK_DIR OUT_DIR
# PACK_DIR may hold tc.tar.xz and googletest.tar.xz (as for scripts/gpu_session.sh) and wheels/ (from
# scripts/gpu_python_pack.sh: pytest, tilegym, cuda-tile; each carried wheel is installed) and tilegym/tests
# (TileGym's tests, from the same script). OUT_DIR gets logs.tgz (every log, the pytest
# JUnit XML, the benchmark JSON) and bridges_gpu.json (the summary); the summary is printed last.
# BENCH_GIT_COMMIT overrides the commit recorded in the summary; BRIDGES_PYTEST_FILES (names in
# tests/python) runs those files instead of the whole tier; BRIDGES_PYTEST_WORKERS=N runs both pytest
# runs in N processes (pytest-xdist, where the image has it: compiles then overlap). BRIDGES_SANITIZE_S=N
# gives N seconds after the python tier to compute-sanitizer (memcheck, racecheck, initcheck, synccheck, a
# quarter each; BRIDGES_SANITIZE_TOOLS names fewer) over the GPU cases of every op's test file, with the
# cubins already cached by the tier; the files in BRIDGES_SANITIZE_ALONE (test_fmha.py) run in processes of
# their own, so that a context one of them breaks does not fail the rest. BRIDGES_OVERHEAD=0 skips the
# launch-overhead benchmarks.
# BRIDGES_TILEGYM_S caps TileGym's tests (default half the total; the JUnit XML is written when it stops);
# BRIDGES_TILEGYM_TESTS (paths under TileGym's tests/ops) runs those test files instead of the ported ops'.
set -uo pipefail
SECONDS=0
total=${BRIDGES_TOTAL_S:-540}  # wall time: TileGym's tests first, then the python tier in what is left
pack=$(cd "$1" && pwd)
out=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$repo/scripts/gpu_common.sh"
work=/tmp/cutile-bridges
logs=$work/logs
mkdir -p "$out" "$work" "$logs"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"

# Python packages the tests need, from the carried wheels, into a private target directory.
site=$work/site
if [[ -d $pack/wheels ]]; then
  # Every carried wheel: the image's own pytest serves when none is carried.
  python3 -m pip install --quiet --no-index --target "$site" --no-deps "$pack"/wheels/*.whl >"$logs/pip.log" 2>&1 ||
    echo "pip install failed (see pip.log)"
fi
export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
python3 -c 'import pytest' 2>/dev/null || { echo "pytest is missing: carry wheels/ (scripts/gpu_python_pack.sh)"; exit 1; }

cmake_args=(-DCMAKE_BUILD_TYPE=Release -DCUTILE_PYTHON=$(command -v python3))
if [[ -f $pack/googletest.tar.xz ]]; then
  tar -C "$work" -xJf "$pack/googletest.tar.xz"
  cmake_args+=(-DCUTILE_GTEST_SOURCE_DIR=$work/googletest)
fi
build=${CUTILE_GPU_BUILD_DIR:-$work/build}  # shared by the GPU scripts of one call
configure_build "$repo" "$build" "$logs/cmake.log" "${cmake_args[@]}" || { tail -20 "$logs/cmake.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target cutile_cpp_kernels cutile_cpp_native cutile-bench-launch-overhead >"$logs/build.log" 2>&1 ||
  { grep -m20 error "$logs/build.log"; exit 1; }

# cuTile Python (the tests that compare with TileGym's kernels) finds tileiras on PATH.
unpack_toolchain "$pack" "$work" && tileiras_on_path "$repo" "$work"
export CUTILE_CACHE_DIR=$work/cache CUDA_TILE_CACHE_DIR=$work/cutile-python-cache
workers=()
[[ -n ${BRIDGES_PYTEST_WORKERS:-} ]] && workers=(-n "$BRIDGES_PYTEST_WORKERS")

# TileGym's own correctness tests (test_op) of the ops we register, on our backend alone: the test classes
# name their backends in `_backends`, which becomes ["cutile-cpp"]; the plugin import registers the backend,
# and DISABLE_FALLBACK=1 makes an op we lack fail instead of running PyTorch's.
tilegym_exit=none
if [[ -d $pack/tilegym/tests ]]; then
  rm -rf "$work/tilegym" && cp -r "$pack/tilegym" "$work/tilegym"
  sed -i -E 's/_backends = \["cutile"[^]]*\]/_backends = ["cutile-cpp"]/' $(grep -rl '_backends = \[' "$work/tilegym/tests")
  ported=(activation/test_relu.py activation/test_gelu.py activation/test_geglu.py test_silu_and_mul.py test_swiglu.py
    test_dropout.py test_softmax.py test_rms_norm.py test_layer_norm_legacy.py test_rope.py test_bmm.py test_matmul.py
    test_splitk_reduce.py)
  [[ -n ${BRIDGES_TILEGYM_TESTS:-} ]] && read -r -a ported <<<"$BRIDGES_TILEGYM_TESTS"  # names under tests/ops
  (cd "$work/tilegym" && DISABLE_FALLBACK=1 CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build \
    PYTHONPATH=$repo/python:$PYTHONPATH timeout -s INT -k 10 "${BRIDGES_TILEGYM_S:-$((total / 2))}" \
    python3 -m pytest -rs -p no:cacheprovider -p cutile_cpp.tilegym "${workers[@]}" -k test_op \
    --junitxml="$logs/tilegym.xml" "${ported[@]/#/tests/ops/}" >"$logs/tilegym.log" 2>&1)
  tilegym_exit=$?
fi

# TileGym's own benchmark scripts with a cutile-cpp line beside cuTile Python's (bench/ops/tilegym_bench.py),
# those named in BRIDGES_TILEGYM_BENCH (e.g. "bench_softmax bench_rmsnorm"), each for at most
# BRIDGES_TILEGYM_BENCH_S seconds (120), leaving out x values above BRIDGES_TILEGYM_BENCH_MAX_X (0: none).
if [[ -n ${BRIDGES_TILEGYM_BENCH:-} && -d $pack/tilegym/tests/benchmark ]]; then
  DISABLE_FALLBACK=1 CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build PYTHONPATH=$repo/python:$PYTHONPATH \
    python3 "$repo/bench/ops/tilegym_bench.py" --bench-dir "$pack/tilegym/tests/benchmark" \
    --timeout-s "${BRIDGES_TILEGYM_BENCH_S:-120}" --max-x "${BRIDGES_TILEGYM_BENCH_MAX_X:-0}" \
    --out "$logs/tilegym_bench.json" $BRIDGES_TILEGYM_BENCH \
    >"$logs/tilegym_bench.log" 2>&1
fi

# The python tier, one pytest run over all files so that the JUnit XML has every case, in the time left
# before the launch-overhead benchmarks (SIGINT first: pytest still writes the XML of what ran).
sanitize_s=${BRIDGES_SANITIZE_S:-0}
left=$((total - SECONDS - 60 - sanitize_s))
((left < 60)) && left=60
test_files=("$repo/tests/python")
if [[ -n ${BRIDGES_PYTEST_FILES:-} ]]; then
  test_files=()
  for name in $BRIDGES_PYTEST_FILES; do test_files+=("$repo/tests/python/$name"); done
fi
CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build PYTHONPATH=$repo/python:$PYTHONPATH \
  timeout -s INT -k 10 "$left" python3 -m pytest -rs -p no:cacheprovider "${workers[@]}" --junitxml="$logs/pytest.xml" \
  "${test_files[@]}" >"$logs/pytest.log" 2>&1
pytest_exit=$?

# compute-sanitizer over the ops' GPU cases: each tool in its share of the time, one pytest process under
# it over the first cases of every op's file (tests/python/sanitizer_run.py) and one for each file named in
# BRIDGES_SANITIZE_ALONE, the tool's error count and the kernels it names kept per run
# (sanitize_<tool>[_<file>].log, .xml).
if ((sanitize_s > 0)); then
  alone=(${BRIDGES_SANITIZE_ALONE-test_fmha.py})
  op_files=()
  for f in "$repo"/tests/python/test_*.py; do
    [[ " ${alone[*]} " == *" $(basename "$f") "* ]] && continue
    grep -q "^@needs_gpu" "$f" && grep -q "cutile_cpp\.ops\|cutile_cpp\.[a-z_]*(" "$f" && op_files+=("$f")
  done
  tools=(${BRIDGES_SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck})
  share=$((sanitize_s / ${#tools[@]}))  # per tool: a quarter of it for each file alone, at most 30 s
  alone_s=$((share / 4 < 30 ? share / 4 : 30))
  rest_s=$((share - ${#alone[@]} * alone_s))
  sanitize() {  # SECONDS TOOL NAME FILE...: one process under the tool, its log and XML named sanitize_NAME
    CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build PYTHONPATH=$repo/python:$PYTHONPATH \
      timeout -s INT -k 10 "$1" compute-sanitizer --tool "$2" --target-processes all \
      --print-limit 50 python3 "$repo/tests/python/sanitizer_run.py" -q -p no:cacheprovider \
      -k "gpu and not cutile_python and not tilegym" \
      --junitxml="$logs/sanitize_$3.xml" "${@:4}" >"$logs/sanitize_$3.log" 2>&1
    echo "$3 exit $?" >>"$logs/sanitize_exits.txt"
  }
  for tool in "${tools[@]}"; do
    sanitize "$rest_s" "$tool" "$tool" "${op_files[@]}"
    for name in "${alone[@]}"; do sanitize "$alone_s" "$tool" "${tool}_${name%.py}" "$repo/tests/python/$name"; done
  done
fi

if [[ ${BRIDGES_OVERHEAD:-1} == 1 ]]; then
  "$build/bench/cutile-bench-launch-overhead" --benchmark_format=json --benchmark_out="$logs/launch_overhead_cpp.json" \
    >"$logs/launch_overhead_cpp.log" 2>&1
  CUTILE_CPP_MODE=development CUTILE_CPP_BUILD_DIR=$build python3 "$repo/bench/launch_overhead.py" \
    --json "$logs/launch_overhead_python.json" >"$logs/launch_overhead_python.log" 2>&1
fi

# The copy on a GPU machine may carry a stale .git: BENCH_GIT_COMMIT names the commit, as for gpu_bench.sh.
commit=${BENCH_GIT_COMMIT:-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)}
python3 - "$logs" "$pytest_exit" "$commit" "$tilegym_exit" \
  >"$out/bridges_gpu.json" <<'PY'
import json, pathlib, re, sys, xml.etree.ElementTree as ET
logs, pytest_exit, commit = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
summary = {"commit": commit, "gpus": (logs / "gpu.txt").read_text().strip().splitlines(), "pytest_exit": pytest_exit}
summary["tilegym_exit"] = sys.argv[4]
for run in ("pytest", "tilegym"):
    try:
        suite = ET.parse(logs / f"{run}.xml").getroot().find("testsuite")
        summary[run] = {k: int(suite.get(k)) for k in ("tests", "failures", "errors", "skipped")}
        summary[f"{run}_skipped"] = sorted({c.find("skipped").get("message") for c in suite.iter("testcase") if c.find("skipped") is not None})
        summary[f"{run}_failed"] = [c.get("classname") + "::" + c.get("name") for c in suite.iter("testcase")
                                    if c.find("failure") is not None or c.find("error") is not None]
    except (OSError, ET.ParseError, AttributeError) as e:
        summary[run] = f"no JUnit XML: {e}"
try:
    bench = json.loads((logs / "launch_overhead_cpp.json").read_text())
    summary["cpp_host_launch_us"] = {b["name"]: b["real_time"] for b in bench["benchmarks"] if b.get("aggregate_name") in ("median", "mean")}
except (OSError, ValueError, KeyError) as e:
    summary["cpp_host_launch_us"] = f"no result: {e}"
try:
    python_overhead = json.loads((logs / "launch_overhead_python.json").read_text())
    summary["python_host_launch_us"] = python_overhead["host_call_us_median"]
    summary["python_host_launch_over_torch_add"] = python_overhead.get("host_call_over_torch_add_rounds")
    summary["python_glue_us"] = python_overhead.get("python_glue_us_median")
except (OSError, ValueError, KeyError) as e:
    summary["python_host_launch_us"] = f"no result: {e}"
summary["targets_us"] = {"cpp": 5, "python": 15}
try:
    summary["tilegym_bench"] = {name: run.get("summary", run) for name, run in
                                json.loads((logs / "tilegym_bench.json").read_text()).items()}
except (OSError, ValueError):
    pass
sanitize = {}
for log in sorted(logs.glob("sanitize_*.log")):
    text = log.read_text(errors="replace")
    tool = log.stem.removeprefix("sanitize_")
    errors = re.findall(r"ERROR SUMMARY: (\d+) error", text)
    entry = {"error_summaries": [int(e) for e in errors], "kernels_named": sorted(set(re.findall(r"=+\s+at (\S+?)\+0x", text)))[:20]}
    try:
        suite = ET.parse(logs / f"sanitize_{tool}.xml").getroot().find("testsuite")
        entry.update({k: int(suite.get(k)) for k in ("tests", "failures", "errors", "skipped")})
    except (OSError, ET.ParseError, AttributeError) as e:
        entry["junit"] = f"none (stopped at its time share, or refused): {e}"
    entry["tail"] = text.strip().splitlines()[-3:]
    sanitize[tool] = entry
if sanitize:
    summary["compute_sanitizer"] = sanitize
print(json.dumps(summary, indent=1))
PY

tail -n 25 "$logs/pytest.log"
[[ -f $logs/tilegym.log ]] && tail -n 15 "$logs/tilegym.log"
cat "$out/bridges_gpu.json"
cp "$out/bridges_gpu.json" "$logs/"
tar -C "$logs" -czf "$out/logs.tgz" .
