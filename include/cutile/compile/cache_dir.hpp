// Where cutile keeps compiled kernels and reproducer bundles.
#pragma once

#include <filesystem>

namespace cutile::compile {

/// $CUTILE_CACHE_DIR when set, else ~/.cache/cutile. The directory may not exist yet. Throws
/// cutile::RuntimeError when neither the variable nor a home directory is known.
std::filesystem::path cache_dir();

}  // namespace cutile::compile
