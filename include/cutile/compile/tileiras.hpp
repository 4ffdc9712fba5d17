// Compiling Tile IR bytecode to a cubin with tileiras.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/compile/toolchain.hpp"

namespace cutile::compile {

struct CompileOptions {
  std::string gpu_name = "sm_90";
  int opt_level = 3;  ///< 0..3
  bool lineinfo = false;
  std::chrono::milliseconds timeout{120000};
  /// Where failed compilations leave their bundle; empty means cache_dir() / "reproducers".
  std::filesystem::path reproducer_root;
};

struct CompileResult {
  std::vector<uint8_t> cubin;
  double seconds = 0;  ///< wall time of the tileiras run
};

/// The targets tileiras accepts for --gpu-name.
std::span<const std::string_view> supported_gpu_names();

/// Runs tileiras on `bytecode`. A gpu_name or opt_level tileiras would refuse is a cutile::UserError.
/// When tileiras fails, times out, writes nothing or writes a cubin that cubin_problem() (cubin_check.hpp)
/// refuses, a reproducer bundle is left in <reproducer_root>/<kernel>-<time>-<pid>/ (input.tileirbc,
/// command.txt, versions.txt, stderr.txt, and output.cubin when one was written) and a cutile::RuntimeError
/// names the kernel, the exit status or the cubin's defect, the target, the bundle and then tileiras' first
/// diagnostics, as printable text of bounded length.
CompileResult compile_to_cubin(const Toolchain& toolchain, std::span<const uint8_t> bytecode,
                               const CompileOptions& options, std::string_view kernel_name);

}  // namespace cutile::compile
