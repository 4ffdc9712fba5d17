#include "cutile/compile/cache_dir.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace cutile::compile {
namespace {

TEST(CacheDir, FollowsCutileCacheDir) {
  test_support::ScopedEnv env("CUTILE_CACHE_DIR", "/somewhere/cache");
  EXPECT_EQ(cache_dir(), "/somewhere/cache");
}

TEST(CacheDir, DefaultsToTheHomeCache) {
  test_support::ScopedEnv env("CUTILE_CACHE_DIR", std::nullopt);
  test_support::ScopedEnv home("HOME", "/home/someone");
  EXPECT_EQ(cache_dir(), "/home/someone/.cache/cutile");
}

TEST(CacheDir, PrivateDirectoriesAreForThisUserAlone) {
  test_support::TempDir temp("cutile-cache-dir");
  const auto dir = temp.path() / "a" / "b";
  EXPECT_FALSE(create_private_directories(dir, *CacheIo::system()));
  for (const auto& made : {temp.path() / "a", dir}) {
    struct stat info {};
    ASSERT_EQ(::stat(made.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0700u) << made;
  }
  EXPECT_FALSE(create_private_directories(dir, *CacheIo::system()));  // already there
  std::ofstream(temp.path() / "file") << "x";
  EXPECT_EQ(create_private_directories(temp.path() / "file", *CacheIo::system()), std::errc::not_a_directory);
  EXPECT_EQ(create_private_directories(temp.path() / "file" / "c", *CacheIo::system()),
            std::errc::not_a_directory);
}

TEST(CacheDir, TrustNeedsThisUserOrRootAndNoOtherWriter) {
  const uid_t self = ::geteuid();
  EXPECT_EQ(trust_problem(self, S_IFDIR | 0700), std::nullopt);
  EXPECT_EQ(trust_problem(0, S_IFDIR | 0755), std::nullopt);
  EXPECT_EQ(trust_problem(self, S_IFREG | 0644), std::nullopt);
  EXPECT_EQ(trust_problem(self, S_IFDIR | 0775), "group-writable (mode 0775)");
  EXPECT_EQ(trust_problem(self, S_IFDIR | 01777), "world-writable (mode 1777)");
  EXPECT_EQ(trust_problem(self + 4242, S_IFREG | 0600), "owned by user " + std::to_string(self + 4242) +
                                                            ", not by this user (" + std::to_string(self) +
                                                            ") or root");
}

}  // namespace
}  // namespace cutile::compile
