// A fresh directory under the system temp directory, removed with its contents at scope exit.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <string>

namespace cutile::test_support {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "cutile-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::filesystem::filesystem_error("mkdtemp", pattern,
                                              std::error_code(errno, std::generic_category()));
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace cutile::test_support
