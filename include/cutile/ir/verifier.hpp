// The Tile IR verifier: rejects what tileiras would reject (type rules, per-op semantic rules, version
// availability, region structure, dominance) before any bytecode is written, with messages that name
// the kernel, the op and the C++ line that produced it.
#pragma once

#include <string>
#include <vector>

#include "cutile/ir/location.hpp"
#include "cutile/ir/module.hpp"
#include "cutile/ir/version.hpp"

namespace cutile::ir {

/// One problem found in a module.
struct Diagnostic {
  std::string kernel;   ///< entry function; empty for problems of the module itself (globals, names)
  std::string op;       ///< op mnemonic; empty for problems of the function or module itself
  Location location;    ///< the op's location, else the function's
  std::string message;  ///< what was expected and what was found

  /// "in kernel 'softmax' at softmax.cpp:12:5: addf: operand types must match: ...".
  std::string str() const;
};

/// Every problem of `module` when written as bytecode `version`; empty when the module is valid.
/// Checks of an op stop at its first problem; other ops are still checked.
std::vector<Diagnostic> check_module(const Module& module, Version version = kDefaultVersion);

/// Throws cutile::UserError listing every problem of check_module, one per line.
void verify_module(const Module& module, Version version = kDefaultVersion);

}  // namespace cutile::ir
