// Processes that share one cache directory compile a kernel once: the first takes the key's lock, the
// others wait for its entry. A holder killed mid-compilation releases the lock with its death, and one of
// the waiters compiles in its place; one that hangs is waited for no longer than the compile timeout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cutile/compile/cubin_cache.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/tileiras_wrapper.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using test_support::TileirasWrapper;

constexpr int kProcesses = 4;
constexpr int kFailed = 99;

class CacheProcesses : public test_support::ReferenceKernelTest {
 protected:
  // Forks a process that gets the kernel from a cache on the shared directory; it exits with the cubin's
  // origin, or kFailed.
  pid_t start_client() const {
    const pid_t pid = ::fork();
    if (pid != 0) return pid;
    int code = kFailed;
    try {
      CubinCache cache(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
      code = static_cast<int>(cache.get(bytecode, CompileOptions{}, "vadd")->origin);
    } catch (...) {
    }
    ::_exit(code);
  }

  // The host process of each tileiras run that compiled, in order.
  std::vector<pid_t> compilations() const {
    std::vector<pid_t> hosts;
    std::ifstream log(log_path());
    for (pid_t pid; log >> pid;) hosts.push_back(pid);
    return hosts;
  }
  fs::path log_path() const { return temp.path() / "compilations"; }

  // Every file the cache directory holds, by name.
  std::vector<std::string> cache_files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(temp.path() / "cubins"))
      if (!entry.is_directory()) names.push_back(entry.path().filename().string());
    return names;
  }

  test_support::TempDir temp{"cutile-cache-processes"};
};

// The client processes of a test; those still running when it ends are killed.
struct Clients {
  std::vector<pid_t> pids;
  ~Clients() {
    for (pid_t pid : pids)
      if (::waitpid(pid, nullptr, WNOHANG) == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
      }
  }

  // How many ended with each exit status (or minus the signal that ended them).
  std::map<int, int> exit_codes() const {
    std::map<int, int> codes;
    for (pid_t pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      ++codes[WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status)];
    }
    return codes;
  }
};

TEST_F(CacheProcesses, CompileAKernelOnce) {
  TileirasWrapper wrapper(
      toolchain, "echo $PPID >> " + shell_quote(log_path().string()) + "; sleep 1; exec \"$REAL\" \"$@\"");
  test_support::ScopedEnv tileiras("CUTILE_TILEIRAS", wrapper.path().string());
  Clients clients;
  for (int i = 0; i < kProcesses; ++i) clients.pids.push_back(start_client());
  const auto codes = clients.exit_codes();
  EXPECT_EQ(compilations().size(), 1u);
  EXPECT_EQ(codes, (std::map<int, int>{{static_cast<int>(CachedCubin::Origin::compiled), 1},
                                       {static_cast<int>(CachedCubin::Origin::disk), kProcesses - 1}}));
  EXPECT_EQ(cache_files(), std::vector<std::string>{cubin_cache_key(bytecode, {}).hex() + ".cubin"});
}

TEST_F(CacheProcesses, AKilledCompilerIsReplacedByOneOfTheWaiters) {
  // The first compilation hangs until its host is killed; the one that takes over runs as usual.
  const fs::path first = temp.path() / "first";
  TileirasWrapper wrapper(toolchain, "echo $PPID >> " + shell_quote(log_path().string()) + "; if mkdir " +
                                         shell_quote(first.string()) +
                                         " 2>/dev/null; then exec sleep 400; fi; exec \"$REAL\" \"$@\"");
  test_support::ScopedEnv tileiras("CUTILE_TILEIRAS", wrapper.path().string());
  Clients clients;
  for (int i = 0; i < kProcesses; ++i) clients.pids.push_back(start_client());
  for (int i = 0; i < 1500 && compilations().empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(compilations().size(), 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the others are waiting now, not compiling
  EXPECT_EQ(compilations().size(), 1u);
  const pid_t holder = compilations().front();
  ::kill(holder, SIGKILL);

  const auto codes = clients.exit_codes();
  ASSERT_EQ(compilations().size(), 2u);
  EXPECT_NE(compilations()[1], holder);
  EXPECT_EQ(codes, (std::map<int, int>{{-SIGKILL, 1},
                                       {static_cast<int>(CachedCubin::Origin::compiled), 1},
                                       {static_cast<int>(CachedCubin::Origin::disk), kProcesses - 2}}));
  EXPECT_EQ(cache_files(), std::vector<std::string>{cubin_cache_key(bytecode, {}).hex() + ".cubin"});
}

// Rounds of processes sharing one cache directory, emptied before each round, while some are killed at
// random moments: every process not killed gets both kernels; each round ends with both entries whole
// (read back from disk with no compilation) and nothing else in the directory but lock files; and no
// kernel is compiled more often than once plus the kills. CUTILE_CACHE_ROUNDS sets the number of rounds
// (default 3) for a longer run.
TEST_F(CacheProcesses, RoundsUnderRandomKills) {
  // A compilation takes at least half a second, so that kills land during compilations and waits.
  TileirasWrapper wrapper(
      toolchain, "echo $PPID >> " + shell_quote(log_path().string()) + "; sleep 0.5; exec \"$REAL\" \"$@\"");
  test_support::ScopedEnv tileiras("CUTILE_TILEIRAS", wrapper.path().string());
  const char* asked = std::getenv("CUTILE_CACHE_ROUNDS");
  const int rounds = asked ? std::atoi(asked) : 3;
  constexpr int kClients = 6, kKills = 2;
  std::vector<CompileOptions> kernels(2);
  kernels[1].lineinfo = true;  // a second key of the same kernel
  std::mt19937 random(20261204);
  int killed = 0, compiled = 0;
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    fs::remove_all(temp.path() / "cubins");
    fs::remove(log_path());
    Clients clients;
    for (int i = 0; i < kClients; ++i) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        int code = kFailed;
        try {
          CubinCache cache(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
          for (int k = 0; k < 2; ++k) cache.get(bytecode, kernels[(i + k) % 2], "vadd");  // half start with each
          code = 0;
        } catch (...) {
        }
        ::_exit(code);
      }
      clients.pids.push_back(pid);
    }
    std::vector<pid_t> victims = clients.pids;
    std::shuffle(victims.begin(), victims.end(), random);
    for (int k = 0; k < kKills; ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 800)(random)));
      ::kill(victims[k], SIGKILL);
    }
    const auto codes = clients.exit_codes();
    int ended_by_kill = 0;
    for (const auto& [code, count] : codes) {
      EXPECT_TRUE(code == 0 || code == -SIGKILL) << count << " process(es) ended with " << code;
      if (code == -SIGKILL) ended_by_kill += count;
    }
    const size_t compilations_this_round = compilations().size();
    EXPECT_LE(compilations_this_round, 2u + ended_by_kill);
    CubinCache reader(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
    for (const CompileOptions& options : kernels)
      EXPECT_EQ(reader.get(bytecode, options, "vadd")->origin, CachedCubin::Origin::disk);
    EXPECT_EQ(compilations().size(), compilations_this_round) << "an entry was not whole";
    for (const std::string& name : cache_files())
      EXPECT_TRUE(name.ends_with(".cubin") || name.ends_with(".lock")) << "left behind: " << name;
    killed += ended_by_kill;
    compiled += static_cast<int>(compilations_this_round);
  }
  std::printf("%d rounds of %d processes: %d killed, %d compilations for %d kernels per round\n", rounds, kClients,
              killed, compiled, 2);
}

// A holder that neither finishes nor dies: the wait ends with the compile timeout, and the kernel is
// compiled here and not written, since only the holder writes the entry.
TEST_F(CacheProcesses, AHungHolderIsWaitedForUpToTheCompileTimeout) {
  CubinCache cache(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
  CompileOptions options;
  options.timeout = std::chrono::seconds(10);  // the wait's limit, and enough for tileiras on a busy machine
  options.reproducer_root = temp.path() / "reproducers";
  const CacheKey key = cubin_cache_key(bytecode, options);
  fs::create_directories(cache.lock_path(key).parent_path());
  const int holder = ::open(cache.lock_path(key).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_EQ(::flock(holder, LOCK_EX | LOCK_NB), 0);
  testing::internal::CaptureStderr();
  auto cached = cache.get(bytecode, options, "vadd");
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  ::close(holder);
  EXPECT_EQ(cached->origin, CachedCubin::Origin::compiled);
  EXPECT_EQ(stderr_text, "cutile: waited 10000 ms for another process compiling kernel 'vadd' (" +
                             cache.lock_path(key).string() + "); compiling it here without caching it\n");
  EXPECT_FALSE(fs::exists(cache.entry_path(key)));
  EXPECT_TRUE(cache.disk_writable());
}

}  // namespace
}  // namespace cutile::compile
