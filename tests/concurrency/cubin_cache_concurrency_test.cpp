// Threads sharing one CubinCache: one compilation per key, failures reaching every waiter, distinct keys
// compiled side by side. Real tileiras; the ThreadSanitizer build runs this tier (scripts/sanitize.sh).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <latch>
#include <thread>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/error.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using Origin = CachedCubin::Origin;

constexpr std::string_view kKernel = "vadd";
constexpr int kThreads = 8;

class CubinCacheThreads : public test_support::ReferenceKernelTest {
 protected:
  CacheConfig config() const { return CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30}; }

  // Runs body(i) on kThreads threads released together.
  template <class Body>
  static void on_threads(Body body) {
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        body(i);
      });
    for (auto& thread : threads) thread.join();
  }

  test_support::TempDir temp{"cutile-cubin-cache-threads"};
};

TEST_F(CubinCacheThreads, ConcurrentCallersShareOneCompilation) {
  CubinCache cache(config());
  std::vector<std::shared_ptr<const CachedCubin>> results(kThreads);
  on_threads([&](int i) { results[i] = cache.get(bytecode, CompileOptions{}, kKernel); });

  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().memory_hits, uint64_t{kThreads - 1});
  int compiled = 0;
  for (const auto& result : results) {
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(result->cubin, results[0]->cubin);
    compiled += result->origin == Origin::compiled;
  }
  EXPECT_EQ(compiled, 1);
}

// A failed compilation reaches every waiter, runs tileiras once (one reproducer bundle), and is not cached.
TEST_F(CubinCacheThreads, FailedCompilationReachesEveryWaiterAndIsNotCached) {
  CubinCache cache(config());
  const std::vector<uint8_t> garbage{0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 0xff, 0xff, 0xff};
  CompileOptions failing;
  failing.reproducer_root = temp.path() / "reproducers";
  std::atomic<int> failures{0};
  on_threads([&](int) {
    try {
      cache.get(garbage, failing, "broken");
    } catch (const RuntimeError& error) {
      if (error.message().find("tileiras failed for kernel 'broken'") != std::string::npos) ++failures;
    }
  });
  EXPECT_EQ(failures, kThreads);
  EXPECT_EQ(std::distance(fs::directory_iterator(failing.reproducer_root), fs::directory_iterator()), 1);

  EXPECT_THROW(cache.get(garbage, failing, "broken"), RuntimeError);
  EXPECT_EQ(std::distance(fs::directory_iterator(failing.reproducer_root), fs::directory_iterator()), 2);
  EXPECT_EQ(cache.stats().compiles, 0u);
  EXPECT_FALSE(fs::exists(cache.entry_path(cubin_cache_key(garbage, failing))));
}

// Keys that differ compile at once, each once; a second round is served from memory alone.
TEST_F(CubinCacheThreads, DistinctKeysCompileSideBySide) {
  CubinCache cache(config());
  constexpr int kLevels = 4;
  auto options_of = [](int i) {
    CompileOptions options;
    options.opt_level = i % kLevels;
    return options;
  };
  std::vector<std::shared_ptr<const CachedCubin>> first(kThreads), second(kThreads);
  on_threads([&](int i) { first[i] = cache.get(bytecode, options_of(i), kKernel); });
  on_threads([&](int i) { second[i] = cache.get(bytecode, options_of(i), kKernel); });

  EXPECT_EQ(cache.stats().compiles, uint64_t{kLevels});
  EXPECT_EQ(cache.stats().memory_hits, uint64_t{2 * kThreads - kLevels});
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_NE(first[i], nullptr);
    ASSERT_NE(second[i], nullptr);
    EXPECT_EQ(second[i]->origin, Origin::memory) << i;
    EXPECT_EQ(second[i]->cubin, first[i % kLevels]->cubin) << i;
  }
}

}  // namespace
}  // namespace cutile::compile
