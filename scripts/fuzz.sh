#!/usr/bin/env bash
# The fuzz targets of tools/fuzz: builds them with clang 19 and libc++ in build-fuzz/, runs every input
# that ever crashed a target (tests/data/fuzz/<target>/crashes/), then fuzzes each target for SECONDS
# from its seeds (tests/data/fuzz/<target>/seeds/; the bytecode targets also start from every reference
# bytecode file in tests/data) in a scratch corpus. A crash fails the script; its input is kept in
# build-fuzz/crashes/<target>/, to be committed to the target's crashes/ with the fix.
#   usage: scripts/fuzz.sh [SECONDS_PER_TARGET (30)] [TARGET...]
# Needs clang-19, libc++-19-dev, libc++abi-19-dev and libclang-rt-19-dev (Debian 12); .ci/run installs
# them. Prints a line per target (executions, edges covered, corpus) and writes build-fuzz/fuzz.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-30}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(bytecode_reader_fuzz ir_tools_fuzz cache_entry_fuzz abi_descriptor_fuzz)

command -v clang++-19 > /dev/null || {
  echo "fuzz.sh: clang++-19 is missing (apt-get install clang-19 libc++-19-dev libc++abi-19-dev libclang-rt-19-dev)" >&2
  exit 1
}
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -G Ninja --log-level=WARNING -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DCUTILE_BUILD_TESTS=OFF "${launcher[@]}"
if ! cmake --build build-fuzz --target "${targets[@]}" --parallel "$(nproc)" > build-fuzz/build.log 2>&1; then
  tail -n 60 build-fuzz/build.log
  echo "fuzz.sh: the build failed (build-fuzz/build.log)" >&2
  exit 1
fi

failed=0
results=()
for target in "${targets[@]}"; do
  name=${target%_fuzz}
  data=tests/data/fuzz/$name
  binary=build-fuzz/tools/fuzz/$target
  corpus=build-fuzz/corpus/$name
  crashes=build-fuzz/crashes/$name
  rm -rf "$corpus" && mkdir -p "$corpus" "$crashes"
  [[ -d $data/seeds ]] && cp "$data"/seeds/* "$corpus"/
  if [[ $name == bytecode_reader || $name == ir_tools ]]; then
    find tests/data -name '*.tileirbc' -exec cp -t "$corpus" {} +
  fi
  # Every input that ever crashed the target must now pass.
  if compgen -G "$data/crashes/*" > /dev/null; then
    if ! "$binary" "$data"/crashes/* > "build-fuzz/$name.regressions.log" 2>&1; then
      echo "$target: a committed crash input fails again (build-fuzz/$name.regressions.log)"
      failed=1
      continue
    fi
  fi
  log=build-fuzz/$name.log
  status=0
  "$binary" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$crashes/" -timeout=10 \
    -rss_limit_mb=4096 "$corpus" > "$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  units=$(find "$corpus" -type f | wc -l)
  echo "$target: ${runs:-0} runs in ${seconds} s, ${edges:-0} edges, corpus $units, exit $status"
  results+=("\"$name\": {\"seconds\": $seconds, \"runs\": ${runs:-0}, \"edges\": ${edges:-0}, \"corpus\": $units, \"exit\": $status}")
  if ((status != 0)); then
    grep -m 1 -A 12 'ERROR: \|deadly signal\|uncaught exception' "$log" || tail -n 20 "$log"
    echo "$target: crashed; the input is in $crashes/"
    failed=1
  fi
done
(IFS=,; echo "{${results[*]}}") > build-fuzz/fuzz.json
exit $failed
