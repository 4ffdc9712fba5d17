// Reads CUDA Tile IR bytecode (.tileirbc) of versions 13.1–13.5 into a Tile IR module: our own output,
// cuTile Python's and the official C++ writer's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "cutile/ir/module.hpp"
#include "cutile/ir/version.hpp"

namespace cutile::bytecode {

struct ReadResult {
  std::unique_ptr<ir::Module> module;  ///< named "kernels": bytecode does not store the module name
  ir::Version version;                 ///< the version the file was written in
};

/// Decodes `bytes`. Untrusted input is fine: anything malformed (truncated, bad magic, unknown or newer
/// version, bad sections, out-of-range indices, unknown opcodes/tags/enum values, broken region structure)
/// throws UserError naming the byte offset and what was expected.
ReadResult read_bytecode(std::span<const uint8_t> bytes);

/// Reads and decodes a file; a file that cannot be read is a RuntimeError.
ReadResult read_bytecode_file(const std::filesystem::path& path);

}  // namespace cutile::bytecode
