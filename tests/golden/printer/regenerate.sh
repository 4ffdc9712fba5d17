#!/usr/bin/env bash
# Rebuilds tests/golden/printer/*.mlir: each file is the text that NVIDIA's official printer,
# tileirdisasm, prints for the bytecode of the module of that name in tests/support/op_modules.hpp
# (written by our bytecode writer). Needs the toolchain (tileiras + tileirdisasm) that the aot tier uses.
# Usage: tests/golden/printer/regenerate.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build" --target cutile_test_aot
rm -f "$root"/tests/golden/printer/*.mlir
CUTILE_REGENERATE_PRINTER_GOLDEN=1 "$build/tests/cutile_test_aot" --gtest_filter='OpModules/PrinterMatchesTileirdisasm.*'
# The reference kernel from cuTile Python, printed straight from its bytecode.
tileiras="${CUTILE_TILEIRAS:-$(command -v tileiras || echo /usr/local/cuda/bin/tileiras)}"
disasm="${TILEIRDISASM:-$(dirname "$tileiras")/tileirdisasm}"
"$disasm" "$root/tests/data/reference/vadd_cutile_python_13_3.tileirbc" \
  > "$root/tests/golden/printer/reference/vadd_cutile_python_13_3.mlir"
ls "$root"/tests/golden/printer/*.mlir | wc -l | xargs echo "golden files written:"
