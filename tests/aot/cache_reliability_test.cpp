// The cubin cache when things go wrong: each case gives its message and leaves a cache that serves only
// whole, valid entries.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
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

class CacheReliability : public test_support::ReferenceKernelTest {
 protected:
  void SetUp() override {
    ReferenceKernelTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    options.reproducer_root = temp.path() / "reproducers";
  }

  CacheConfig config(uint64_t max_bytes = uint64_t{1} << 30) const {
    return CacheConfig{temp.path() / "cubins", true, max_bytes};
  }
  CacheKey key() const { return cubin_cache_key(bytecode, options); }

  test_support::TempDir temp{"cutile-cache-reliability"};
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

mode_t mode_of(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

TEST_F(CacheReliability, CacheDirectoriesAndEntriesArePrivate) {
  const fs::path root = temp.path() / "root";
  CubinCache cache(CacheConfig{root / "cubins", true, uint64_t{1} << 30});
  cache.get(bytecode, options, kKernel);
  const fs::path entry = cache.entry_path(key());
  EXPECT_EQ(mode_of(root), 0700u);
  EXPECT_EQ(mode_of(root / "cubins"), 0700u);
  EXPECT_EQ(mode_of(entry.parent_path()), 0700u);
  EXPECT_EQ(mode_of(entry), 0600u);
}

// A cache root or cubins directory that others can write: the disk cache is off, with a warning, and what
// lies there is not served.
TEST_F(CacheReliability, DirectoryOthersCanWriteTurnsTheDiskCacheOff) {
  {
    CubinCache filler(config());
    filler.get(bytecode, options, kKernel);
  }
  const fs::path root = temp.path(), cubins = temp.path() / "cubins";
  const std::pair<fs::path, mode_t> cases[] = {{root, 0770}, {root, 0707}, {cubins, 0730}, {cubins, 0703}};
  for (const auto& [dir, mode] : cases) {
    ASSERT_EQ(::chmod(dir.c_str(), mode), 0);
    testing::internal::CaptureStderr();
    CubinCache cache(config());
    auto cached = cache.get(bytecode, options, kKernel);
    const std::string stderr_text = testing::internal::GetCapturedStderr();
    ::chmod(dir.c_str(), 0700);
    EXPECT_EQ(cached->origin, Origin::compiled) << dir << " " << std::oct << mode;
    EXPECT_FALSE(cache.config().disk_enabled);
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", mode);
    EXPECT_EQ(stderr_text, "cutile: cubin disk cache disabled, compiled kernels are kept in memory only: " +
                               dir.string() + " is " + (mode & 02 ? "world" : "group") + "-writable (mode " +
                               octal + "); point CUTILE_CACHE_DIR at a directory only this user can write\n");
  }
}

TEST_F(CacheReliability, DirectoryOfAnotherUserTurnsTheDiskCacheOff) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a directory of another user needs root";
  const fs::path cubins = temp.path() / "cubins";
  fs::create_directories(cubins);
  ASSERT_EQ(::chown(cubins.c_str(), 65534, 65534), 0);
  testing::internal::CaptureStderr();
  CubinCache cache(config());
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(cache.config().disk_enabled);
  EXPECT_NE(stderr_text.find(cubins.string() + " is owned by user 65534, not by this user (0) or root"),
            std::string::npos)
      << stderr_text;
  EXPECT_EQ(cache.get(bytecode, options, kKernel)->origin, Origin::compiled);
}

// An entry that others can write or own, or a link, is discarded and recompiled, never served.
TEST_F(CacheReliability, UntrustedEntryIsDiscarded) {
  std::vector<uint8_t> good;
  {
    CubinCache filler(config());
    filler.get(bytecode, options, kKernel);
    good = test_support::read_binary(filler.entry_path(key()));
  }
  const fs::path path = CubinCache(config()).entry_path(key());
  const auto plant = [&](const std::string& how) {
    fs::remove(path);
    if (how == "link") {
      write_binary(temp.path() / "elsewhere", good);
      fs::create_symlink(temp.path() / "elsewhere", path);
      return std::string("it is a symbolic link");
    }
    write_binary(path, good);
    if (how == "group") {
      ::chmod(path.c_str(), 0620);
      return std::string("it is group-writable (mode 0620)");
    }
    ::chown(path.c_str(), 65534, 65534);
    return std::string("it is owned by user 65534, not by this user (0) or root");
  };
  std::vector<std::string> ways{"group", "link"};
  if (::geteuid() == 0) ways.push_back("owner");
  for (const auto& way : ways) {
    const std::string why = plant(way);
    CubinCache cache(config());
    testing::internal::CaptureStderr();
    auto cached = cache.get(bytecode, options, kKernel);
    const std::string stderr_text = testing::internal::GetCapturedStderr();
    EXPECT_EQ(cached->origin, Origin::compiled) << way;
    EXPECT_EQ(stderr_text, "cutile: discarding untrusted cache entry " + path.string() + ": " + why + "\n");
    EXPECT_EQ(mode_of(path), 0600u) << way;  // rewritten, ours
  }
}

// The lock file of a process that died while it compiled is removed once it is old; a held one is not.
TEST_F(CacheReliability, StaleLockFilesAreRemoved) {
  CubinCache cache(config());
  const CacheKey dead = cubin_cache_key(std::vector<uint8_t>{1}, options);
  const CacheKey live = cubin_cache_key(std::vector<uint8_t>{2}, options);
  for (const auto& k : {dead, live}) {
    write_binary(cache.lock_path(k), {});
    fs::last_write_time(cache.lock_path(k), fs::file_time_type::clock::now() - std::chrono::hours(2));
  }
  const int holder = ::open(cache.lock_path(live).c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_EQ(::flock(holder, LOCK_EX | LOCK_NB), 0);
  cache.get(bytecode, options, kKernel);  // writes an entry, then sweeps
  ::close(holder);
  EXPECT_FALSE(fs::exists(cache.lock_path(dead)));
  EXPECT_TRUE(fs::exists(cache.lock_path(live)));
  EXPECT_FALSE(fs::exists(cache.lock_path(key())));  // its own, removed when released
}

}  // namespace
}  // namespace cutile::compile
