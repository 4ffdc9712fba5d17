// The cubin cache key: stable across runs and builds, and sensitive to exactly the fields it documents.
#include "cutile/compile/cache_key.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace cutile::compile {
namespace {

std::vector<uint8_t> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

using namespace std::string_view_literals;
const std::vector<uint8_t> kBytecode = bytes_of("\x7fTileIR\0fixed input for the golden key"sv);

TEST(Sha256, MatchesTheStandardTestVector) {
  EXPECT_EQ(to_hex(sha256(bytes_of("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// The golden was computed independently (Python hashlib over the documented encoding). If it changes, every
// cache entry ever written is orphaned: bump kCacheFormatVersion on purpose, then update the golden.
TEST(CacheKey, GoldenDigestForAFixedInput) {
  EXPECT_EQ(kCacheFormatVersion, 1u);
  EXPECT_EQ(cubin_cache_key(kBytecode, CompileOptions{}).hex(),
            "0b4b72530ca7c4045ec463a187d0479120b39851fc40b4ea40a2a643e519487b");
}

TEST(CacheKey, HexIsSixtyFourLowercaseDigits) {
  std::string hex = cubin_cache_key(kBytecode, CompileOptions{}).hex();
  ASSERT_EQ(hex.size(), 64u);
  EXPECT_EQ(hex.find_first_not_of("0123456789abcdef"), std::string::npos) << hex;
}

TEST(CacheKey, EveryFieldChangesTheKey) {
  const CompileOptions base;
  const CacheKey reference = cubin_cache_key(kBytecode, base);
  std::set<CacheKey> keys{reference};
  auto expect_new = [&](std::span<const uint8_t> bytecode, const CompileOptions& options, const char* what) {
    EXPECT_TRUE(keys.insert(cubin_cache_key(bytecode, options)).second) << what << " did not change the key";
  };

  auto flipped = kBytecode;
  flipped[5] ^= 1;
  expect_new(flipped, base, "one bytecode bit");
  auto longer = kBytecode;
  longer.push_back(0);
  expect_new(longer, base, "a trailing bytecode byte");
  CompileOptions options = base;
  options.gpu_name = "sm_100";
  expect_new(kBytecode, options, "gpu_name");
  options = base;
  options.opt_level = 2;
  expect_new(kBytecode, options, "opt_level");
  options = base;
  options.lineinfo = true;
  expect_new(kBytecode, options, "lineinfo");
}

TEST(CacheKey, OptionsThatDoNotShapeTheCubinAreNotInTheKey) {
  CompileOptions options;
  options.timeout = std::chrono::milliseconds(5);
  options.reproducer_root = "/elsewhere";
  EXPECT_EQ(cubin_cache_key(kBytecode, options), cubin_cache_key(kBytecode, CompileOptions{}));
}

// Length prefixes: moving a byte from the end of the bytecode to the start of gpu_name is a different key.
TEST(CacheKey, FieldBoundariesAreUnambiguous) {
  CompileOptions a, b;
  a.gpu_name = "c";
  b.gpu_name = "bc";
  EXPECT_NE(cubin_cache_key(bytes_of("ab"), a), cubin_cache_key(bytes_of("a"), b));
}

TEST(CacheKey, IsDeterministicAndOrdered) {
  const CacheKey first = cubin_cache_key(kBytecode, CompileOptions{});
  EXPECT_EQ(first, cubin_cache_key(kBytecode, CompileOptions{}));
  CompileOptions other;
  other.opt_level = 0;
  const CacheKey second = cubin_cache_key(kBytecode, other);
  EXPECT_TRUE((first < second) != (second < first));
}

}  // namespace
}  // namespace cutile::compile
