// Faults on the cubin cache's write path, injected through its CacheIo seam: a failing mkdir, open (of the
// key's lock file or of the entry's temporary file), write, fsync, close or rename, ENOSPC, a disk that
// fills up mid-entry, and writes that succeed only in part.
// Each failing case gives one clear message and leaves a cache that serves no torn or partial entry;
// the kernel itself is still returned, from memory.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cutile/compile/cache_io.hpp"
#include "cutile/compile/cubin_cache.hpp"
#include "cutile/error.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using Origin = CachedCubin::Origin;

enum class Call { mkdir, open, write, fsync, close, rename };

// Fails the calls of one kind once armed, after letting `skip` of them through, with one errno; or, as a
// disk with `room` bytes left, writes what fits and then fails with ENOSPC; or writes at most `chunk`
// bytes a call, successfully.
class FaultyIo : public CacheIo {
 public:
  std::optional<Call> failing;
  int error = EIO;
  int skip = 0;
  std::optional<size_t> room;
  size_t chunk = 0;
  bool armed = false;

  int mkdir(const char* path, mode_t mode) override {
    return fails(Call::mkdir) ? -1 : CacheIo::mkdir(path, mode);
  }
  int open(const char* path, int flags, mode_t mode) override {
    return fails(Call::open) ? -1 : CacheIo::open(path, flags, mode);
  }
  ssize_t write(int fd, const void* data, size_t size) override {
    if (fails(Call::write)) return -1;
    if (chunk) size = std::min(size, chunk);
    if (room) {
      if (*room == 0) {
        errno = ENOSPC;
        return -1;
      }
      size = std::min(size, *room);
      *room -= size;
    }
    return CacheIo::write(fd, data, size);
  }
  int fsync(int fd) override { return fails(Call::fsync) ? -1 : CacheIo::fsync(fd); }
  int close(int fd) override {
    if (!fails(Call::close)) return CacheIo::close(fd);
    CacheIo::close(fd);  // as on Linux: the descriptor is gone even when close reports an error
    errno = error;
    return -1;
  }
  int rename(const char* from, const char* to) override {
    return fails(Call::rename) ? -1 : CacheIo::rename(from, to);
  }

 private:
  bool fails(Call call) {
    if (!armed || failing != call || skip-- > 0) return false;
    errno = error;
    return true;
  }
};

// What the warning names: the entry's directory (not created), its lock file or the entry (not written).
enum class Named { directory, lock, entry };

struct Fault {
  const char* name;
  std::function<void(FaultyIo&)> inject;
  const char* message;  ///< what the warning says after the path; empty: the write succeeds
  Named named = Named::entry;
};

void PrintTo(const Fault& fault, std::ostream* os) {
  *os << fault.name;
}

class CacheFault : public test_support::ToolchainTest, public ::testing::WithParamInterface<Fault> {
 protected:
  void SetUp() override {
    ToolchainTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    bytecode = test_support::read_binary(test_support::reference_bytecode_path());
  }

  // The regular files under the cache directory.
  std::vector<fs::path> files() const {
    std::vector<fs::path> found;
    for (const auto& entry : fs::recursive_directory_iterator(temp.path() / "cubins"))
      if (entry.is_regular_file()) found.push_back(entry.path());
    return found;
  }

  test_support::TempDir temp{"cutile-cache-fault"};
  std::vector<uint8_t> bytecode;
  const CompileOptions options{};
};

TEST_P(CacheFault, LeavesACorrectCacheAndSaysWhy) {
  const Fault& fault = GetParam();
  auto io = std::make_shared<FaultyIo>();
  fault.inject(*io);
  CubinCache cache(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30, io});
  io->armed = true;  // the cache directory itself exists; the entry's directory and file do not yet
  testing::internal::CaptureStderr();
  auto compiled = cache.get(bytecode, options, "vadd");
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  EXPECT_EQ(compiled->origin, Origin::compiled);
  EXPECT_EQ(cache.get(bytecode, options, "vadd")->origin, Origin::memory);
  const fs::path entry = cache.entry_path(compiled->key);

  if (std::string(fault.message).empty()) {
    EXPECT_EQ(stderr_text, "");
    EXPECT_TRUE(cache.disk_writable());
  } else {
    std::string named = "cannot write " + entry.string();
    if (fault.named == Named::directory) named = "cannot create " + entry.parent_path().string();
    if (fault.named == Named::lock) named = "cannot lock " + cache.lock_path(compiled->key).string();
    EXPECT_EQ(stderr_text,
              "cutile: cubin disk cache not writable, compiled kernels are kept in memory only: " + named +
                  ": " + fault.message + "\n");
    EXPECT_FALSE(cache.disk_writable());
    EXPECT_EQ(cache.stats().disk_errors, 1u);
    EXPECT_EQ(files(), std::vector<fs::path>{}) << "a torn entry or a temporary file was left";
  }

  // What another process finds: the whole entry, or none; never part of one.
  test_support::ScopedEnv no_tileiras("CUTILE_TILEIRAS", "/nonexistent");
  CubinCache reader(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
  testing::internal::CaptureStderr();
  if (std::string(fault.message).empty()) {
    auto served = reader.get(bytecode, options, "vadd");
    EXPECT_EQ(served->origin, Origin::disk);
    EXPECT_EQ(served->cubin, compiled->cubin);
  } else {
    EXPECT_THROW(reader.get(bytecode, options, "vadd"), RuntimeError);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // nothing corrupt was found
  EXPECT_EQ(reader.stats().corrupt_entries, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    WritePath, CacheFault,
    ::testing::Values(
        Fault{"mkdir_fails",
              [](FaultyIo& io) {
                io.failing = Call::mkdir;
                io.error = EACCES;
              },
              "Permission denied", Named::directory},
        Fault{"mkdir_enospc",
              [](FaultyIo& io) {
                io.failing = Call::mkdir;
                io.error = ENOSPC;
              },
              "No space left on device", Named::directory},
        Fault{"lock_open_fails",
              [](FaultyIo& io) {
                io.failing = Call::open;
                io.error = ENOSPC;
              },
              "No space left on device", Named::lock},
        Fault{"open_fails",
              [](FaultyIo& io) {
                io.failing = Call::open;
                io.error = EMFILE;
                io.skip = 1;  // the lock file's
              },
              "Too many open files"},
        Fault{"write_fails", [](FaultyIo& io) { io.failing = Call::write; }, "Input/output error"},
        Fault{"write_enospc",
              [](FaultyIo& io) {
                io.failing = Call::write;
                io.error = ENOSPC;
              },
              "No space left on device"},
        Fault{"disk_fills_mid_entry", [](FaultyIo& io) { io.room = 1000; }, "No space left on device"},
        Fault{"fsync_fails", [](FaultyIo& io) { io.failing = Call::fsync; }, "Input/output error"},
        Fault{"close_fails", [](FaultyIo& io) { io.failing = Call::close; }, "Input/output error"},
        Fault{"rename_fails",
              [](FaultyIo& io) {
                io.failing = Call::rename;
                io.error = EXDEV;
              },
              "Invalid cross-device link"},
        Fault{"short_writes", [](FaultyIo& io) { io.chunk = 100; }, ""}),
    [](const auto& test_info) { return std::string(test_info.param.name); });

}  // namespace
}  // namespace cutile::compile
