// CUTILE_DUMP, CUTILE_DUMP_FILTER and CUTILE_DUMP_DIR, and the files a dump writes.
#include "cutile/compile/dump.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

using test_support::ScopedEnv;

TEST(DumpConfig, NothingByDefault) {
  ScopedEnv dump("CUTILE_DUMP", std::nullopt);
  ScopedEnv filter("CUTILE_DUMP_FILTER", std::nullopt);
  ScopedEnv dir("CUTILE_DUMP_DIR", std::nullopt);
  const DumpConfig config = DumpConfig::from_env();
  EXPECT_FALSE(config.ir);
  EXPECT_FALSE(config.bytecode);
  EXPECT_EQ(config.dir, "cutile_dump");
  EXPECT_FALSE(config.wants("softmax"));
}

TEST(DumpConfig, ParsesWordsFilterAndDir) {
  ScopedEnv dump("CUTILE_DUMP", " IR , bytecode,");
  ScopedEnv filter("CUTILE_DUMP_FILTER", "soft");
  ScopedEnv dir("CUTILE_DUMP_DIR", "/tmp/dumps");
  const DumpConfig config = DumpConfig::from_env();
  EXPECT_TRUE(config.ir);
  EXPECT_TRUE(config.bytecode);
  EXPECT_EQ(config.dir, "/tmp/dumps");
  EXPECT_TRUE(config.wants("softmax_rows<bf16, 4096>"));
  EXPECT_FALSE(config.wants("matmul"));
}

TEST(DumpConfig, EitherWordAlone) {
  {
    ScopedEnv dump("CUTILE_DUMP", "bytecode");
    const DumpConfig config = DumpConfig::from_env();
    EXPECT_FALSE(config.ir);
    EXPECT_TRUE(config.bytecode);
    EXPECT_TRUE(config.wants("anything"));
  }
  {
    ScopedEnv dump("CUTILE_DUMP", "all");
    const DumpConfig config = DumpConfig::from_env();
    EXPECT_TRUE(config.ir && config.bytecode);
  }
}

TEST(DumpFileStem, KeepsNamesReadableAndDistinct) {
  EXPECT_EQ(dump_file_stem("softmax_rows<bf16, 4096>"), "softmax_rows_bf16__4096_");
  EXPECT_EQ(dump_file_stem("a/b"), "a_b");
  EXPECT_EQ(dump_file_stem(""), "kernel");
  EXPECT_EQ(dump_file_stem(".."), "kernel..");
  const std::string long_a(300, 'a');
  const std::string long_b = long_a + "b";
  EXPECT_LE(dump_file_stem(long_a).size(), 120u);
  EXPECT_NE(dump_file_stem(long_a), dump_file_stem(long_b));
}

TEST(WriteDump, WritesTheRequestedFiles) {
  test_support::TempDir temp;
  DumpConfig config;
  config.ir = true;
  config.bytecode = true;
  config.dir = temp.path() / "nested" / "dumps";
  const std::vector<uint8_t> bytecode{0x7f, 'T', 'i', 'l', 'e', 0};
  write_dump(config, "vadd<f32>", "cuda_tile.module @m {}\n", bytecode);
  EXPECT_EQ(test_support::read_text(config.dir / "vadd_f32_.mlir"), "cuda_tile.module @m {}\n");
  EXPECT_EQ(test_support::read_binary(config.dir / "vadd_f32_.tileirbc"), bytecode);

  config.ir = false;
  write_dump(config, "bytecode_only", "ignored", bytecode);
  EXPECT_FALSE(std::filesystem::exists(config.dir / "bytecode_only.mlir"));
  EXPECT_TRUE(std::filesystem::exists(config.dir / "bytecode_only.tileirbc"));
}

}  // namespace
}  // namespace cutile::compile
