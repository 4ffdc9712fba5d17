// The cubin cache against the real tileiras: memory and disk hits, damaged and stale entries, the size
// cap, CUTILE_CACHE=off, single flight, compile_fresh, and a cache directory carried to a machine
// without tileiras.
#include "cutile/compile/cubin_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cutile/bytecode/writer.hpp"
#include "cutile/error.hpp"
#include "support/dsl_kernels.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using Origin = CachedCubin::Origin;
using test_support::ScopedEnv;
using test_support::TempDir;

constexpr std::string_view kKernel = "vadd";

void write_binary(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

size_t count_occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

size_t count_entries(const fs::path& dir) {
  size_t count = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
    if (entry.is_regular_file()) ++count;
  return count;
}

class CubinCacheTest : public test_support::ReferenceKernelTest {
 protected:
  CacheConfig config(uint64_t max_bytes = uint64_t{1} << 30) const {
    return CacheConfig{temp.path() / "cubins", true, max_bytes};
  }

  static CompileOptions options_with_opt_level(int level) {
    CompileOptions options;
    options.opt_level = level;
    return options;
  }

  // The entry on disk, decoded; fails the test when it is missing or invalid.
  CacheEntry entry_on_disk(const CubinCache& cache, const CacheKey& key) const {
    std::string why;
    auto entry = decode_cache_entry(test_support::read_binary(cache.entry_path(key)), key, &why);
    EXPECT_TRUE(entry.has_value()) << cache.entry_path(key) << ": " << why;
    return entry.value_or(CacheEntry{});
  }

  TempDir temp{"cutile-cubin-cache"};
  const CompileOptions options{};
};

// Moves every op of `block` (regions included) to another file and line.
void relocate(const ir::Block& block) {
  for (const auto& op : block.operations()) {
    op->set_location(ir::Location{"/elsewhere/kernel.hpp", op->location().line + 7, 3});
    for (const auto& region : op->regions())
      for (const auto& inner : region->blocks()) relocate(*inner);
  }
}

TEST_F(CubinCacheTest, SourceLocationsDoNotSplitTheCacheWhenTheIdentityOmitsThem) {
  auto module = test_support::dsl_kernels().front().trace();
  const auto here = bytecode::write_bytecode(*module);
  const auto here_identity = bytecode::write_bytecode(*module, {.debug_info = false});
  relocate(module->functions().front()->entry_block());
  const auto elsewhere = bytecode::write_bytecode(*module);
  const auto elsewhere_identity = bytecode::write_bytecode(*module, {.debug_info = false});
  ASSERT_NE(here, elsewhere);
  ASSERT_EQ(here_identity, elsewhere_identity);

  CubinCache cache(config());
  auto first = cache.get(here, options, kKernel, here_identity);
  EXPECT_EQ(first->origin, Origin::compiled);
  auto second = cache.get(elsewhere, options, kKernel, elsewhere_identity);
  EXPECT_EQ(second->origin, Origin::memory);
  EXPECT_EQ(second->key, first->key);
  // Without an identity the located bytecode is the key: another location is another entry.
  EXPECT_NE(cubin_cache_key(here, options), cubin_cache_key(elsewhere, options));
}

TEST_F(CubinCacheTest, SecondGetIsAMemoryHit) {
  CubinCache cache(config());
  auto first = cache.get(bytecode, options, kKernel);
  EXPECT_EQ(first->origin, Origin::compiled);
  EXPECT_GT(first->compile_seconds, 0);
  EXPECT_EQ(first->toolchain_release, toolchain.release);
  EXPECT_EQ(first->key, cubin_cache_key(bytecode, options));
  ASSERT_GE(first->cubin.size(), 4u);
  EXPECT_EQ(std::vector<uint8_t>(first->cubin.begin(), first->cubin.begin() + 4),
            (std::vector<uint8_t>{0x7f, 'E', 'L', 'F'}));

  auto second = cache.get(bytecode, options, kKernel);
  EXPECT_EQ(second->origin, Origin::memory);
  EXPECT_EQ(second->cubin, first->cubin);
  EXPECT_EQ(cache.get(bytecode, options, kKernel), second);  // one object per key in memory

  const CacheStats stats = cache.stats();
  EXPECT_EQ(stats.compiles, 1u);
  EXPECT_EQ(stats.memory_hits, 2u);
  EXPECT_EQ(stats.disk_hits, 0u);
  EXPECT_EQ(entry_on_disk(cache, first->key).cubin, first->cubin);
}

TEST_F(CubinCacheTest, AnotherInstanceHitsTheDisk) {
  std::vector<uint8_t> compiled;
  {
    CubinCache writer(config());
    compiled = writer.get(bytecode, options, kKernel)->cubin;
  }
  CubinCache reader(config());
  auto cached = reader.get(bytecode, options, kKernel);
  EXPECT_EQ(cached->origin, Origin::disk);
  EXPECT_EQ(cached->cubin, compiled);
  EXPECT_EQ(cached->toolchain_release, toolchain.release);
  EXPECT_EQ(reader.stats().disk_hits, 1u);
  EXPECT_EQ(reader.stats().compiles, 0u);
  EXPECT_EQ(reader.get(bytecode, options, kKernel)->origin, Origin::memory);
}

TEST_F(CubinCacheTest, DifferentOptionsAreDifferentEntries) {
  CubinCache cache(config());
  auto o3 = cache.get(bytecode, options, kKernel);
  auto o0 = cache.get(bytecode, options_with_opt_level(0), kKernel);
  EXPECT_EQ(o0->origin, Origin::compiled);
  EXPECT_NE(o0->key, o3->key);
  EXPECT_EQ(cache.stats().compiles, 2u);
  EXPECT_TRUE(fs::exists(cache.entry_path(o0->key)));
  EXPECT_TRUE(fs::exists(cache.entry_path(o3->key)));
}

// Each way an entry can be damaged: reported once, deleted, recompiled and rewritten whole.
class CorruptEntryTest : public CubinCacheTest,
                         public ::testing::WithParamInterface<std::pair<const char*, const char*>> {};

TEST_P(CorruptEntryTest, IsReportedDeletedAndRecompiled) {
  const auto [damage, reason] = GetParam();
  const CacheKey key = cubin_cache_key(bytecode, options);
  fs::path path;
  std::vector<uint8_t> good_cubin;
  {
    CubinCache writer(config());
    good_cubin = writer.get(bytecode, options, kKernel)->cubin;
    path = writer.entry_path(key);
  }
  auto bytes = test_support::read_binary(path);
  const std::string which = damage;
  if (which == "flipped byte") {
    bytes[bytes.size() - 100] ^= 0x01;
  } else if (which == "truncated") {
    bytes.resize(bytes.size() / 2);
  } else if (which == "wrong magic") {
    bytes[3] = '?';
  } else if (which == "other key") {
    auto other = decode_cache_entry(bytes, key, nullptr).value();
    other.key = cubin_cache_key(bytecode, options_with_opt_level(1));
    bytes = encode_cache_entry(other);
  }
  write_binary(path, bytes);

  CubinCache reader(config());
  testing::internal::CaptureStderr();
  auto cached = reader.get(bytecode, options, kKernel);
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_EQ(cached->origin, Origin::compiled);
  EXPECT_EQ(cached->cubin, good_cubin);
  const std::string report = "cutile: discarding corrupt cache entry " + path.string() + ": " + reason;
  EXPECT_EQ(count_occurrences(stderr_text, report), 1u) << stderr_text;
  EXPECT_EQ(count_occurrences(stderr_text, "cutile:"), 1u) << stderr_text;
  EXPECT_EQ(reader.stats().corrupt_entries, 1u);
  EXPECT_EQ(reader.stats().compiles, 1u);
  EXPECT_EQ(entry_on_disk(reader, key).cubin, good_cubin);  // rewritten whole
}

INSTANTIATE_TEST_SUITE_P(
    Damage, CorruptEntryTest,
    ::testing::Values(std::pair{"flipped byte", "the cubin's SHA-256 does not match the header"},
                      std::pair{"truncated", "the header promises a"}, std::pair{"wrong magic", "bad magic"},
                      std::pair{"other key", "it holds key "}),
    [](const auto& test_info) {
      std::string name = test_info.param.first;
      for (char& c : name)
        if (c == ' ') c = '_';
      return name;
    });

TEST_F(CubinCacheTest, EntryOfAnotherToolchainReleaseIsRecompiled) {
  const CacheKey key = cubin_cache_key(bytecode, options);
  CubinCache cache(config());
  const std::vector<uint8_t> foreign{0x7f, 'E', 'L', 'F', 'o', 'l', 'd'};
  fs::create_directories(cache.entry_path(key).parent_path());
  write_binary(cache.entry_path(key), encode_cache_entry(CacheEntry{key, "12.9.1", foreign}));

  auto cached = cache.get(bytecode, options, kKernel);
  EXPECT_EQ(cached->origin, Origin::compiled);
  EXPECT_NE(cached->cubin, foreign);
  EXPECT_EQ(cache.stats().stale_entries, 1u);
  EXPECT_EQ(cache.stats().corrupt_entries, 0u);
  const CacheEntry rewritten = entry_on_disk(cache, key);
  EXPECT_EQ(rewritten.toolchain_release, toolchain.release);
  EXPECT_EQ(rewritten.cubin, cached->cubin);
}

TEST_F(CubinCacheTest, SizeCapEvictsTheLeastRecentlyUsedEntry) {
  const CacheKey k1 = cubin_cache_key(bytecode, options_with_opt_level(3));
  const CacheKey k2 = cubin_cache_key(bytecode, options_with_opt_level(2));
  const CacheKey k3 = cubin_cache_key(bytecode, options_with_opt_level(1));
  uint64_t s1 = 0, s3 = 0;
  {
    CubinCache filler(config());
    for (int level : {3, 2, 1}) filler.get(bytecode, options_with_opt_level(level), kKernel);
    s1 = fs::file_size(filler.entry_path(k1));
    s3 = fs::file_size(filler.entry_path(k3));
    fs::remove(filler.entry_path(k3));
    // k1 was used before k2.
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(filler.entry_path(k1), now - std::chrono::seconds(200));
    fs::last_write_time(filler.entry_path(k2), now - std::chrono::seconds(100));
  }

  CubinCache cache(config(s1 + s3));
  EXPECT_EQ(cache.get(bytecode, options_with_opt_level(3), kKernel)->origin, Origin::disk);      // touches k1
  EXPECT_EQ(cache.get(bytecode, options_with_opt_level(1), kKernel)->origin, Origin::compiled);  // writes k3

  EXPECT_TRUE(fs::exists(cache.entry_path(k1)));
  EXPECT_FALSE(fs::exists(cache.entry_path(k2)));
  EXPECT_TRUE(fs::exists(cache.entry_path(k3)));
  EXPECT_EQ(cache.stats().evictions, 1u);
}

TEST_F(CubinCacheTest, CacheOffKeepsKernelsInMemoryOnly) {
  ScopedEnv dir("CUTILE_CACHE_DIR", temp.path().string());
  ScopedEnv off("CUTILE_CACHE", "off");
  CubinCache cache(CacheConfig::from_env());
  EXPECT_FALSE(cache.config().disk_enabled);
  EXPECT_EQ(cache.get(bytecode, options, kKernel)->origin, Origin::compiled);
  EXPECT_EQ(cache.get(bytecode, options, kKernel)->origin, Origin::memory);
  EXPECT_EQ(count_entries(temp.path()), 0u);
}

// compile_fresh (used for dumped kernels) reads neither cache but refreshes both.
TEST_F(CubinCacheTest, CompileFreshBypassesTheCaches) {
  const CacheKey key = cubin_cache_key(bytecode, options);
  CubinCache cache(config());
  fs::create_directories(cache.entry_path(key).parent_path());
  write_binary(cache.entry_path(key), {'j', 'u', 'n', 'k'});

  testing::internal::CaptureStderr();
  auto fresh = cache.compile_fresh(bytecode, options, kKernel);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // the damaged entry was never read
  EXPECT_EQ(fresh->origin, Origin::compiled);
  EXPECT_EQ(entry_on_disk(cache, key).cubin, fresh->cubin);

  auto again = cache.compile_fresh(bytecode, options, kKernel);
  EXPECT_EQ(again->origin, Origin::compiled);
  EXPECT_EQ(cache.stats().compiles, 2u);
  EXPECT_EQ(cache.get(bytecode, options, kKernel)->origin, Origin::memory);
}

// AOT: fill a cache where tileiras is, copy the directory to a "GPU machine" without tileiras, run from it.
TEST_F(CubinCacheTest, CopiedCacheDirectoryWorksWithoutTileiras) {
  std::shared_ptr<const CachedCubin> ahead;
  {
    CubinCache builder(config());
    ahead = builder.compile_ahead(bytecode, options, kKernel);
    EXPECT_EQ(ahead->origin, Origin::compiled);
  }
  TempDir gpu_machine{"cutile-aot-copy"};
  fs::copy(temp.path() / "cubins", gpu_machine.path() / "cubins", fs::copy_options::recursive);

  ScopedEnv hide("CUTILE_TILEIRAS", "/nonexistent");
  ScopedEnv dir("CUTILE_CACHE_DIR", gpu_machine.path().string());
  ScopedEnv on("CUTILE_CACHE", std::nullopt);
  ASSERT_FALSE(find_toolchain().has_value());
  CubinCache runner(CacheConfig::from_env());
  auto cached = runner.get(bytecode, options, kKernel);
  EXPECT_EQ(cached->origin, Origin::disk);
  EXPECT_EQ(cached->cubin, ahead->cubin);
  EXPECT_EQ(cached->toolchain_release, toolchain.release);
  EXPECT_EQ(runner.get(bytecode, options, kKernel)->origin, Origin::memory);

  // Without tileiras there is nothing to compare a release with, so an entry of any release is used.
  const CacheKey other = cubin_cache_key(bytecode, options_with_opt_level(0));
  fs::create_directories(runner.entry_path(other).parent_path());
  write_binary(runner.entry_path(other), encode_cache_entry(CacheEntry{other, "12.9.1", ahead->cubin}));
  auto foreign = runner.get(bytecode, options_with_opt_level(0), kKernel);
  EXPECT_EQ(foreign->origin, Origin::disk);
  EXPECT_EQ(foreign->toolchain_release, "12.9.1");

  // A key nobody compiled ahead cannot be served.
  EXPECT_THROW(runner.get(bytecode, options_with_opt_level(1), kKernel), RuntimeError);
  EXPECT_EQ(runner.stats().disk_hits, 2u);
  EXPECT_EQ(runner.stats().compiles, 0u);
}

}  // namespace
}  // namespace cutile::compile
