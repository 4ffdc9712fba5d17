// Text form of Tile IR in the official MLIR syntax of the cuda_tile dialect, as NVIDIA's
// `tileirdisasm` prints it: custom op syntax, defaulted attributes elided, and SSA names chosen the
// way MLIR's printer chooses them (%0, %arg0, %cst_1_i32, %tview, %blockId_x, ...), so that text
// from this printer and from the official one diff cleanly.
#pragma once

#include <iosfwd>
#include <string>

#include "cutile/ir/module.hpp"

namespace cutile::ir {

struct PrintOptions {
  /// Append `loc("file":line:col)` (or `loc(unknown)`) to every op and function.
  bool locations = false;
};

/// `cuda_tile.module @name { globals... entries... }`.
std::string print_module(const Module& module, const PrintOptions& options = {});
/// One `entry @name(...) { ... }`, without the module around it (what tileirdisasm prints per function).
std::string print_function(const Function& function, const PrintOptions& options = {});
/// One `global ...` line.
std::string print_global(const Global& global);

std::ostream& operator<<(std::ostream& os, const Module& module);
std::ostream& operator<<(std::ostream& os, const Function& function);
std::ostream& operator<<(std::ostream& os, const Type& type);

}  // namespace cutile::ir
