// Where cutile keeps compiled kernels and reproducer bundles, and who may write there: a cubin read from
// the cache is loaded into the GPU, so only this user (or root) may have written it.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "cutile/compile/cache_io.hpp"

namespace cutile::compile {

/// $CUTILE_CACHE_DIR when set, else ~/.cache/cutile. The directory may not exist yet. Throws
/// cutile::RuntimeError when neither the variable nor a home directory is known.
std::filesystem::path cache_dir();

/// Creates `dir` and its missing parents with mode 0700 through `io`; directories that exist are left as
/// they are. The error of the first mkdir that fails, or ENOTDIR when `dir` is not a directory in the end.
std::error_code create_private_directories(const std::filesystem::path& dir, CacheIo& io);

/// Why a cache directory or entry owned by `owner` with `mode` cannot be trusted: it belongs to another
/// user than this one and root, or its group or everyone may write it, so that others could plant a cubin;
/// nullopt when it can be. E.g. "group-writable (mode 0775)".
std::optional<std::string> trust_problem(uid_t owner, mode_t mode);

}  // namespace cutile::compile
