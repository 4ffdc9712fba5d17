// What a cubin must be before it is cached or loaded. tileiras can exit 0 and still leave a truncated or
// foreign file, and a cache entry's checksum proves only that it holds what was written, so a cubin is
// checked where it enters the caches: after tileiras, and when read from disk.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cutile::compile {

/// Why `cubin` is not a CUDA ELF file holding a function symbol for each of `entries`; nullopt when it is.
/// Checked: the ELF magic, 64-bit little-endian class, machine EM_CUDA, the section table, every section and
/// the program header table lying within the file, and the symbol table with its string table.
std::optional<std::string> cubin_problem(std::span<const uint8_t> cubin,
                                         std::span<const std::string> entries);

/// The entry functions of Tile IR `bytecode`, which the cubin compiled from it must define. A
/// cutile::UserError when the bytecode cannot be read.
std::vector<std::string> entry_names(std::span<const uint8_t> bytecode);

}  // namespace cutile::compile
