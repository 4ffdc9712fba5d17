#include "cutile/compile/cache_dir.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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

std::error_code create_private_directories(const std::filesystem::path& dir, CacheIo& io) {
  if (io.mkdir(dir.c_str(), 0700) == 0) return {};
  int error = errno;
  if (error == ENOENT && dir.has_parent_path() && dir.parent_path() != dir) {
    if (auto ec = create_private_directories(dir.parent_path(), io)) return ec;
    if (io.mkdir(dir.c_str(), 0700) == 0) return {};
    error = errno;
  }
  if (error != EEXIST) return {error, std::generic_category()};
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) return {errno, std::generic_category()};
  if (!S_ISDIR(info.st_mode)) return std::make_error_code(std::errc::not_a_directory);
  return {};
}

std::optional<std::string> trust_problem(uid_t owner, mode_t mode) {
  const uid_t self = ::geteuid();
  if (owner != self && owner != 0)
    return "owned by user " + std::to_string(owner) + ", not by this user (" + std::to_string(self) +
           ") or root";
  if (!(mode & (S_IWGRP | S_IWOTH))) return std::nullopt;
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode & 07777));
  return std::string(mode & S_IWOTH ? "world" : "group") + "-writable (mode " + octal + ")";
}

}  // namespace cutile::compile
