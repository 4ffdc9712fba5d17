// The disk entry format and the cache's environment settings, without tileiras.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/error.hpp"
#include "support/scoped_env.hpp"

namespace cutile::compile {
namespace {

using test_support::ScopedEnv;

CacheEntry sample_entry() {
  CacheEntry entry;
  entry.key = cubin_cache_key(std::vector<uint8_t>{1, 2, 3}, CompileOptions{});
  entry.toolchain_release = "13.4.92";
  entry.cubin = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4, 5, 6};
  return entry;
}

std::string why_rejected(const std::vector<uint8_t>& bytes, const CacheKey& key) {
  std::string why;
  EXPECT_FALSE(decode_cache_entry(bytes, key, &why).has_value());
  return why;
}

TEST(CacheEntry, RoundTrips) {
  const CacheEntry entry = sample_entry();
  const auto bytes = encode_cache_entry(entry);
  std::string why;
  auto decoded = decode_cache_entry(bytes, entry.key, &why);
  ASSERT_TRUE(decoded.has_value()) << why;
  EXPECT_EQ(decoded->key, entry.key);
  EXPECT_EQ(decoded->toolchain_release, "13.4.92");
  EXPECT_EQ(decoded->cubin, entry.cubin);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "CUTILECB");
}

TEST(CacheEntry, RejectsEveryKindOfDamage) {
  const CacheEntry entry = sample_entry();
  const auto good = encode_cache_entry(entry);

  auto flipped = good;
  flipped.back() ^= 0x40;
  EXPECT_EQ(why_rejected(flipped, entry.key), "the cubin's SHA-256 does not match the header");

  auto truncated = good;
  truncated.resize(good.size() - 3);
  EXPECT_EQ(why_rejected(truncated, entry.key), "the header promises a 10-byte cubin but 7 bytes follow");

  EXPECT_EQ(why_rejected(std::vector<uint8_t>(good.begin(), good.begin() + 20), entry.key),
            "truncated: 20 bytes, shorter than the header");

  auto magic = good;
  magic[0] = 'X';
  EXPECT_EQ(why_rejected(magic, entry.key), "bad magic");

  auto version = good;
  version[8] = 99;
  EXPECT_EQ(why_rejected(version, entry.key), "format version 99, expected 1");

  const CacheKey other = cubin_cache_key(std::vector<uint8_t>{4}, CompileOptions{});
  EXPECT_EQ(why_rejected(good, other), "it holds key " + entry.key.hex() + ", not " + other.hex());

  auto release = good;
  release[8 + 4 + 32 + 3] = 0x7f;  // top byte of the release length
  EXPECT_NE(why_rejected(release, entry.key).find("implausible"), std::string::npos);

  CacheEntry empty = entry;
  empty.cubin.clear();
  EXPECT_EQ(why_rejected(encode_cache_entry(empty), entry.key), "empty cubin");
}

TEST(CacheConfig, DefaultsFromTheEnvironment) {
  ScopedEnv dir("CUTILE_CACHE_DIR", "/somewhere/cache");
  ScopedEnv cache("CUTILE_CACHE", std::nullopt);
  ScopedEnv max("CUTILE_CACHE_MAX_BYTES", std::nullopt);
  const CacheConfig config = CacheConfig::from_env();
  EXPECT_EQ(config.dir, "/somewhere/cache/cubins");
  EXPECT_TRUE(config.disk_enabled);
  EXPECT_EQ(config.max_bytes, uint64_t{1} << 30);
}

TEST(CacheConfig, CacheOffOrZeroDisablesTheDisk) {
  for (const char* word : {"off", "OFF", "0"}) {
    ScopedEnv cache("CUTILE_CACHE", word);
    EXPECT_FALSE(CacheConfig::from_env().disk_enabled) << word;
  }
  for (const char* word : {"on", "1", ""}) {
    ScopedEnv cache("CUTILE_CACHE", word);
    EXPECT_TRUE(CacheConfig::from_env().disk_enabled) << word;
  }
}

TEST(CacheConfig, MaxBytesTakesSuffixes) {
  const std::pair<const char*, uint64_t> cases[] = {
      {"12345", 12345}, {"64K", 64ull << 10}, {"3m", 3ull << 20}, {"2G", 2ull << 30}, {"1T", 1ull << 40}};
  for (const auto& [text, bytes] : cases) {
    ScopedEnv max("CUTILE_CACHE_MAX_BYTES", text);
    EXPECT_EQ(CacheConfig::from_env().max_bytes, bytes) << text;
  }
}

}  // namespace
}  // namespace cutile::compile
