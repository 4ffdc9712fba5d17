#include "cutile/compile/cache_dir.hpp"

#include <gtest/gtest.h>

#include "support/scoped_env.hpp"

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

}  // namespace
}  // namespace cutile::compile
