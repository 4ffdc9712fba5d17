// Runs the built `cutile-ir` (its path comes from CMake as CUTILE_IR_TOOL_PATH) for the CLI tests.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compile/subprocess.hpp"

namespace cutile::test_support {

#ifdef CUTILE_IR_TOOL_PATH
inline constexpr const char* kCutileIrTool = CUTILE_IR_TOOL_PATH;
#else
inline constexpr const char* kCutileIrTool = "";
#endif

inline compile::SubprocessResult run_cutile_ir(std::vector<std::string> args) {
  args.insert(args.begin(), kCutileIrTool);
  compile::SubprocessOptions options;
  options.timeout = std::chrono::milliseconds(60000);
  return compile::run_subprocess(args, options);
}

inline std::filesystem::path reference_file(const std::string& name) {
  return std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference" / name;
}

/// The cuTile Python reference bytecode files checked into tests/data/reference.
inline std::vector<std::filesystem::path> reference_bytecode_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(reference_file("")))
    if (entry.path().extension() == ".tileirbc") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline void write_binary(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

}  // namespace cutile::test_support
