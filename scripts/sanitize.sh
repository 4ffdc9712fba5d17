#!/usr/bin/env bash
# The sanitizer builds, each configured from its preset and building only the executables it runs:
#   address: the unit, ir, error, interp and faults tiers under AddressSanitizer (with LeakSanitizer) and
#            UndefinedBehaviorSanitizer without recovery, at -O1 (preset debug, build-debug/);
#   thread:  the concurrency tier under ThreadSanitizer (preset tsan, build-tsan/).
# Any sanitizer report fails its test. Build logs are in <build dir>/build.log, printed only on failure.
#   usage: scripts/sanitize.sh [address] [thread]   (default both; after scripts/test.sh, whose python
#          environment the configure step names and whose tileiras the concurrency tier runs)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=$(scripts/python_env.sh)
kinds=("$@")
(( ${#kinds[@]} )) || kinds=(address thread)

# build_and_test PRESET BUILD_DIR TIER...
build_and_test() {
  local preset=$1 dir=$2
  shift 2
  local tiers=("$@")
  cmake --preset "$preset" --log-level=WARNING -DCUTILE_PYTHON="$python"
  if ! cmake --build --preset "$preset" --parallel "$(nproc)" --target "${tiers[@]/#/cutile_test_}" > "$dir/build.log" 2>&1; then
    tail -n 200 "$dir/build.log"
    echo "sanitize.sh: the $preset build failed ($dir/build.log)" >&2
    exit 1
  fi
  ctest --preset "$preset" --parallel "$(nproc)" -L "$(IFS='|'; echo "${tiers[*]}")"
}

for kind in "${kinds[@]}"; do
  case $kind in
    address)
      ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        build_and_test debug build-debug unit ir error interp faults ;;
    thread)
      TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build_and_test tsan build-tsan concurrency ;;
    *) echo "sanitize.sh: unknown sanitizer '$kind' (address, thread)" >&2; exit 2 ;;
  esac
done
