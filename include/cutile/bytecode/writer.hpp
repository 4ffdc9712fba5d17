// Writes a Tile IR module as CUDA Tile IR bytecode (.tileirbc) for one bytecode version.
#pragma once

#include <cstdint>
#include <vector>

#include "cutile/ir/module.hpp"
#include "cutile/ir/version.hpp"

namespace cutile::bytecode {

struct WriteOptions {
  ir::Version version = ir::kDefaultVersion;
  /// Emit a Debug section with the ops' and functions' source locations when any is known.
  bool debug_info = true;
};

/// Encodes `module` at `options.version`. Deterministic: the same module gives the same bytes.
/// Throws UserError when the module uses anything the target version cannot express (an op, type,
/// element type, attribute or enum value introduced later, a non-default value of a later attribute,
/// private/constant globals before 13.3) or is structurally malformed (unknown attribute, operand
/// groups that do not match the op table, a value used outside its scope).
std::vector<uint8_t> write_bytecode(const ir::Module& module, const WriteOptions& options = {});

}  // namespace cutile::bytecode
