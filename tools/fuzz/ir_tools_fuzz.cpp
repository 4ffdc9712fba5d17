// libFuzzer target for what `cutile-ir dump` and `cutile-ir diff` do with a file: read it, verify it, then
// print the module and diff each kernel against itself. Bad input must end in a UserError from the reader
// or in the verifier's diagnostics; a module that verifies must print and diff without any error, and a
// kernel diffed against itself must PASS with every row a MATCH.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "cutile/bytecode/reader.hpp"
#include "cutile/error.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"
#include "cutile/ir_diff/diff.hpp"
#include "cutile/ir_diff/equivalence.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cutile::bytecode::ReadResult read;
  try {
    read = cutile::bytecode::read_bytecode(std::span<const uint8_t>(data, size));
  } catch (const cutile::UserError&) {
    return 0;
  }
  const cutile::ir::Module& module = *read.module;
  if (!cutile::ir::check_module(module, read.version).empty()) return 0;
  (void)cutile::ir::print_module(module);
  for (const auto& function : module.functions()) {
    cutile::ir::DiffReport report = cutile::ir::diff_functions(*function, *function);
    for (const cutile::ir::DiffRow& row : report.rows) {
      if (row.status != cutile::ir::DiffStatus::match) {
        std::fprintf(stderr, "a kernel differs from itself at '%s'\n", row.feature.c_str());
        std::abort();
      }
    }
    (void)cutile::ir::format_diff_table(report);
    (void)cutile::ir::format_diff_json(report);
  }
  std::string difference;
  if (!cutile::ir::modules_equivalent(module, module, &difference)) {
    std::fprintf(stderr, "a module is not equivalent to itself: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
