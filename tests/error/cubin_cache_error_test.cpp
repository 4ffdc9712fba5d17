// The cubin cache's failure modes each give their specific message, and none of them crashes.
#include <gtest/gtest.h>

#include <fstream>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/compile/dump.hpp"
#include "cutile/error.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"
#include "support/error_of.hpp"

namespace cutile::compile {
namespace {

namespace fs = std::filesystem;
using test_support::ScopedEnv;
using test_support::TempDir;

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "missing \"" << part << "\" in: " << text;
}

TEST(CubinCacheError, NoTileirasAndNoEntryNamesEverything) {
  TempDir temp("cutile-cache-error");
  ScopedEnv hide("CUTILE_TILEIRAS", "/nonexistent");
  CubinCache cache(CacheConfig{temp.path() / "cubins", true, uint64_t{1} << 30});
  const auto bytecode = test_support::read_binary(test_support::reference_bytecode_path());
  const CompileOptions options;
  const std::string message =
      test_support::error_of<RuntimeError>([&] { cache.get(bytecode, options, "vector_add<f32, 1024>"); });
  expect_contains(message, "cannot compile kernel 'vector_add<f32, 1024>' for sm_90");
  expect_contains(message, "cache key " + cubin_cache_key(bytecode, options).hex());
  expect_contains(message, "tileiras) is missing (CUTILE_TILEIRAS=/nonexistent: no such file)");
  expect_contains(message, "the cubin cache " + (temp.path() / "cubins").string() + " has no entry for it");
  expect_contains(message, "scripts/install_toolchain.sh");
  expect_contains(message,
                  "copy its cache directory (CUTILE_CACHE_DIR there, default ~/.cache/cutile) here, "
                  "setting CUTILE_CACHE_DIR to the copy");
  // Not cached: the same call fails the same way, and nothing was written.
  EXPECT_THROW(cache.get(bytecode, options, "vector_add<f32, 1024>"), RuntimeError);
  EXPECT_EQ(cache.stats().compiles, 0u);
}

TEST(CubinCacheError, NoTileirasWithTheDiskCacheOff) {
  ScopedEnv hide("CUTILE_TILEIRAS", "/nonexistent");
  CubinCache cache(CacheConfig{"", false, 0});
  const std::string message = test_support::error_of<RuntimeError>([&] {
    cache.get(std::vector<uint8_t>{1, 2, 3}, CompileOptions{}, "k");
  });
  expect_contains(message, "the disk cache is disabled");
}

TEST(CubinCacheError, BadCacheSettings) {
  {
    ScopedEnv cache("CUTILE_CACHE", "maybe");
    expect_contains(test_support::error_of<UserError>([] { CacheConfig::from_env(); }),
                    "CUTILE_CACHE='maybe' is not one of on, off, 1, 0");
  }
  for (const char* text : {"lots", "12X", "-5", "99999999999999999999", "20000000T"}) {
    ScopedEnv max("CUTILE_CACHE_MAX_BYTES", text);
    expect_contains(test_support::error_of<UserError>([] { CacheConfig::from_env(); }),
                    std::string("CUTILE_CACHE_MAX_BYTES='") + text + "' is not a byte count");
  }
}

TEST(DumpConfigError, UnknownWordListsTheValidOnes) {
  ScopedEnv dump("CUTILE_DUMP", "ir,asm");
  EXPECT_EQ(
      test_support::error_of<UserError>([] { DumpConfig::from_env(); }),
      "CUTILE_DUMP='ir,asm': unknown word 'asm'; valid words are ir, bytecode and all, separated by commas");
}

TEST(DumpConfigError, UnwritableDumpDirectoryIsARuntimeError) {
  TempDir temp("cutile-dump-error");
  std::ofstream(temp.path() / "file") << "not a directory";
  DumpConfig config;
  config.ir = true;
  config.dir = temp.path() / "file" / "dumps";
  expect_contains(test_support::error_of<RuntimeError>([&] { write_dump(config, "k", "ir", {}); }),
                  "cannot create dump directory " + config.dir.string());
}

// A cache directory that cannot be created: one warning, then the cache works from memory.
class UnwritableCacheDir : public test_support::ToolchainTest {};

TEST_F(UnwritableCacheDir, WarnsOnceAndKeepsKernelsInMemory) {
  TempDir temp("cutile-cache-error");
  std::ofstream(temp.path() / "file") << "a file where the cache directory should go";
  const fs::path dir = temp.path() / "file" / "cubins";
  const auto bytecode = test_support::read_binary(test_support::reference_bytecode_path());

  testing::internal::CaptureStderr();
  CubinCache cache(CacheConfig{dir, true, uint64_t{1} << 30});
  auto first = cache.get(bytecode, CompileOptions{}, "vadd");
  auto second = cache.get(bytecode, CompileOptions{}, "vadd");
  CompileOptions o0;
  o0.opt_level = 0;
  auto third = cache.get(bytecode, o0, "vadd");
  const std::string stderr_text = testing::internal::GetCapturedStderr();

  EXPECT_EQ(first->origin, CachedCubin::Origin::compiled);
  EXPECT_EQ(second->origin, CachedCubin::Origin::memory);
  EXPECT_EQ(third->origin, CachedCubin::Origin::compiled);
  EXPECT_FALSE(cache.disk_writable());
  const std::string warning =
      "cutile: cubin disk cache not writable, compiled kernels are kept in memory only: ";
  EXPECT_EQ(stderr_text, warning + "cannot create " + dir.string() + ": Not a directory\n");
}

}  // namespace
}  // namespace cutile::compile
