// The cubin cache when things go wrong: each case gives its message and leaves a cache that serves only
// whole, valid entries.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/error.hpp"
#include "support/error_of.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/tileiras_wrapper.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using Origin = CachedCubin::Origin;
using test_support::ScopedEnv;
using test_support::TileirasWrapper;

constexpr std::string_view kKernel = "vadd";

void write_binary(const fs::path& path, const std::vector<uint8_t>& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

class CacheReliability : public test_support::ToolchainTest {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    bytecode = test_support::read_binary(test_support::reference_bytecode_path());
    options.reproducer_root = temp.path() / "reproducers";
  }

  CacheConfig config(uint64_t max_bytes = uint64_t{1} << 30) const {
    return CacheConfig{temp.path() / "cubins", true, max_bytes};
  }
  CacheKey key() const { return cubin_cache_key(bytecode, options); }

  test_support::TempDir temp{"cutile-cache-reliability"};
  std::vector<uint8_t> bytecode;
  CompileOptions options;
};

TEST_F(CacheReliability, BadCubinFromTileirasIsNeitherCachedNorServed) {
  TileirasWrapper wrapper(toolchain, "printf garbage > \"$3\"; exit 0");
  {
    ScopedEnv tileiras("CUTILE_TILEIRAS", wrapper.path().string());
    CubinCache cache(config());
    const std::string message =
        test_support::error_of<RuntimeError>([&] { cache.get(bytecode, options, kKernel); });
    EXPECT_NE(message.find("the cubin is invalid: truncated: 7 bytes"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(cache.entry_path(key())));
    EXPECT_EQ(cache.stats().compiles, 0u);
  }
  CubinCache cache(config());
  auto cached = cache.get(bytecode, options, kKernel);
  EXPECT_EQ(cached->origin, Origin::compiled);
}

TEST_F(CacheReliability, EntryHoldingAnInvalidCubinIsDiscarded) {
  CubinCache cache(config());
  const std::vector<uint8_t> garbage{'g', 'a', 'r', 'b', 'a', 'g', 'e'};
  write_binary(cache.entry_path(key()), encode_cache_entry(CacheEntry{key(), toolchain.release, garbage}));
  testing::internal::CaptureStderr();
  auto cached = cache.get(bytecode, options, kKernel);
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_EQ(cached->origin, Origin::compiled);
  EXPECT_NE(cached->cubin, garbage);
  EXPECT_EQ(stderr_text, "cutile: discarding corrupt cache entry " + cache.entry_path(key()).string() +
                             ": not a valid cubin: truncated: 7 bytes, shorter than an ELF header\n");
  EXPECT_EQ(cache.stats().corrupt_entries, 1u);
  std::string why;
  auto rewritten = decode_cache_entry(test_support::read_binary(cache.entry_path(key())), key(), &why);
  ASSERT_TRUE(rewritten.has_value()) << why;
  EXPECT_EQ(rewritten->cubin, cached->cubin);
}

// A 40 GiB sparse file where an entry belongs is reported, deleted and recompiled, never read whole.
TEST_F(CacheReliability, HugeEntryFileIsCorrupt) {
  CubinCache cache(config());
  const fs::path path = cache.entry_path(key());
  write_binary(path, {});
  fs::resize_file(path, uint64_t{40} << 30);
  testing::internal::CaptureStderr();
  auto cached = cache.get(bytecode, options, kKernel);
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_EQ(cached->origin, Origin::compiled);
  EXPECT_EQ(stderr_text,
            "cutile: discarding corrupt cache entry " + path.string() +
                ": the file has 42949672960 bytes, more than the cache's cap of 1073741824 bytes\n");
  EXPECT_EQ(cache.stats().corrupt_entries, 1u);
  EXPECT_LT(fs::file_size(path), uint64_t{1} << 20);  // rewritten whole
}

// An entry followed by 40 GiB more than its header states, under a cap that allows the size: the header
// bounds the read.
TEST_F(CacheReliability, EntryLongerThanItsHeaderSaysIsCorrupt) {
  std::vector<uint8_t> cubin;
  {
    CubinCache writer(config());
    cubin = writer.get(bytecode, options, kKernel)->cubin;
  }
  CubinCache cache(config(uint64_t{1} << 40));
  const fs::path path = cache.entry_path(key());
  fs::resize_file(path, uint64_t{40} << 30);
  testing::internal::CaptureStderr();
  auto cached = cache.get(bytecode, options, kKernel);
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_EQ(cached->origin, Origin::compiled);
  EXPECT_NE(stderr_text.find(": the header promises a " + std::to_string(cubin.size()) + "-byte cubin but "),
            std::string::npos)
      << stderr_text;
  EXPECT_EQ(cache.stats().corrupt_entries, 1u);
}

// No entry may be larger than the cap (readers refuse it), so such a kernel stays in memory only.
TEST_F(CacheReliability, EntryLargerThanTheCapIsNotWritten) {
  for (int run = 0; run < 2; ++run) {
    CubinCache cache(config(1000));
    EXPECT_EQ(cache.get(bytecode, options, kKernel)->origin, Origin::compiled);
    EXPECT_FALSE(fs::exists(cache.entry_path(key())));
    EXPECT_EQ(cache.stats().corrupt_entries, 0u);
  }
}

// A temporary file counts against the cap whatever its age: a young 20 GiB one under a 1 MiB cap makes the
// next write evict the other entries.
TEST_F(CacheReliability, TemporaryFilesCountAgainstTheCap) {
  CompileOptions o2 = options;
  o2.opt_level = 2;
  const CacheKey k2 = cubin_cache_key(bytecode, o2);
  {
    CubinCache filler(config(1 << 20));
    filler.get(bytecode, options, kKernel);
  }
  CubinCache cache(config(1 << 20));
  const fs::path temp_file = cache.entry_path(k2).parent_path() / (k2.hex() + ".tmp.4194304.0");
  write_binary(temp_file, {});
  fs::resize_file(temp_file, uint64_t{20} << 30);
  EXPECT_EQ(cache.get(bytecode, o2, kKernel)->origin, Origin::compiled);
  EXPECT_FALSE(fs::exists(cache.entry_path(key())));
  EXPECT_TRUE(fs::exists(cache.entry_path(k2)));  // the entry just written stays
  EXPECT_EQ(cache.stats().evictions, 1u);
}

}  // namespace
}  // namespace cutile::compile
