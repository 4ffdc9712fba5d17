#!/usr/bin/env bash
# The unit, ir, error and interp tiers under AddressSanitizer and UndefinedBehaviorSanitizer: configures
# the debug preset (build-debug/, -O1), builds those tiers' executables alone, and runs their tests. Any
# sanitizer report fails its test (UBSan does not recover; LeakSanitizer is on). The build log is in
# build-debug/build.log and is printed only when the build fails.
#   usage: scripts/sanitize.sh   (after scripts/test.sh, whose python environment the configure step names)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=$(scripts/python_env.sh)
cmake --preset debug --log-level=WARNING -DCUTILE_PYTHON="$python"
tiers=(unit ir error interp)
if ! cmake --build --preset debug --parallel "$(nproc)" --target "${tiers[@]/#/cutile_test_}" > build-debug/build.log 2>&1; then
  tail -n 200 build-debug/build.log
  echo "sanitize.sh: the build failed (build-debug/build.log)" >&2
  exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --preset debug --parallel "$(nproc)" -L "$(IFS='|'; echo "${tiers[*]}")"
