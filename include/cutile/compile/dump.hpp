// Dumping a kernel's Tile IR (text) and bytecode to files, as the launch path compiles it.
//
//   CUTILE_DUMP=ir,bytecode   what to write: ir (<kernel>.mlir), bytecode (<kernel>.tileirbc), or all
//   CUTILE_DUMP_FILTER=text   only kernels whose name contains this text (empty: every kernel)
//   CUTILE_DUMP_DIR=path      where (default ./cutile_dump)
//
// A kernel being dumped is compiled with CubinCache::compile_fresh(), bypassing the caches, so that its
// dump (and any tileiras failure) never goes missing behind a cache hit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace cutile::compile {

struct DumpConfig {
  bool ir = false;
  bool bytecode = false;
  std::string filter;
  std::filesystem::path dir = "cutile_dump";

  /// From the variables above; an unknown word in CUTILE_DUMP is a cutile::UserError listing the valid ones.
  static DumpConfig from_env();

  /// Whether anything is dumped for `kernel`.
  bool wants(std::string_view kernel) const;
};

/// The file name stem for `kernel`: characters other than letters, digits, '_', '-' and '.' become '_';
/// long names are shortened and end in a hash of the whole name, so that distinct kernels stay distinct.
std::string dump_file_stem(std::string_view kernel);

/// Writes <dir>/<stem>.mlir and/or <dir>/<stem>.tileirbc as `config` asks, creating dir; the kernel filter
/// is not consulted here (see wants()). A file that cannot be written is a cutile::RuntimeError.
void write_dump(const DumpConfig& config, std::string_view kernel, std::string_view ir_text,
                std::span<const uint8_t> bytecode);

}  // namespace cutile::compile
