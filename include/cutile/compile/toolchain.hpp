// The Tile IR compiler installation: tileiras and the ptxas and libNVVM of its own release.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/ir/version.hpp"

namespace cutile::compile {

struct Toolchain {
  std::filesystem::path tileiras;
  std::filesystem::path tileirdisasm;  ///< prints bytecode as MLIR text; empty when not installed
  std::filesystem::path ptxas;
  std::filesystem::path libnvvm;
  /// tileiras finds libNVVM only through CUDA_HOME, so it always runs with CUDA_HOME set to this prefix.
  std::filesystem::path cuda_home;
  std::string release;       ///< e.g. "13.4.92"
  std::string version_text;  ///< the whole `tileiras --version` output, for reproducers and cache keys
  std::vector<ir::Version> bytecode_versions;  ///< what `tileiras --list-versions` accepts, oldest first
};

/// Looks for a complete toolchain, in this order:
///   $CUTILE_TILEIRAS (the binary itself; when set, nothing else is tried)
///   $CUTILE_TOOLCHAIN_DIR (when set, nothing else is tried), else this project's .toolchain
///   each directory on PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, /usr/local/cuda-X.Y/bin newest first.
/// A tileiras whose ptxas or libNVVM is missing or of another release is passed over. On failure
/// *why_not (when given) says what was tried and what was wrong.
std::optional<Toolchain> find_toolchain(std::string* why_not = nullptr);

/// find_toolchain(), or a cutile::RuntimeError that says what is missing and how to install it.
Toolchain require_toolchain();

/// Bytecode versions that both tileiras reads and cutile writes, oldest first.
std::vector<ir::Version> supported_bytecode_versions(const Toolchain& toolchain);

/// The newest of supported_bytecode_versions().
ir::Version newest_bytecode_version(const Toolchain& toolchain);

/// The version to write: `requested`, else $CUTILE_BYTECODE_VERSION, else ir::kDefaultVersion (13.3;
/// 13.4 only when asked) or, with an older tileiras, its newest. A requested version the toolchain
/// cannot take is a cutile::UserError that lists the supported ones.
ir::Version select_bytecode_version(const Toolchain& toolchain, std::optional<ir::Version> requested = {});

/// "13.4.92" from "... Cuda compilation tools, release 13.4, V13.4.92 ..." (tileiras and ptxas);
/// nullopt when no such line is present.
std::optional<std::string> parse_release(std::string_view version_output);

/// The versions listed one per line by `tileiras --list-versions`, oldest first; lines that are
/// not versions are ignored.
std::vector<ir::Version> parse_version_list(std::string_view list_output);

}  // namespace cutile::compile
