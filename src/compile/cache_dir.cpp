#include "cutile/compile/cache_dir.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "cutile/error.hpp"

namespace cutile::compile {
namespace {

// $HOME, else the password database: services often run without HOME.
std::filesystem::path home_dir() {
  if (const char* home = std::getenv("HOME"); home && *home) return home;
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_dir &&
      *found->pw_dir)
    return found->pw_dir;
  return {};
}

}  // namespace

std::filesystem::path cache_dir() {
  if (const char* dir = std::getenv("CUTILE_CACHE_DIR"); dir && *dir) return dir;
  auto home = home_dir();
  if (home.empty())
    throw RuntimeError("no cache directory: CUTILE_CACHE_DIR is not set and the home directory is unknown");
  return home / ".cache" / "cutile";
}

}  // namespace cutile::compile
