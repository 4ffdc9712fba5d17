// cuTile Python's vadd bytecode compiles with the real tileiras, no GPU needed.
#include <gtest/gtest.h>

#include <cstdio>

#include "compile/subprocess.hpp"
#include "cutile/compile/tileiras.hpp"
#include "support/scoped_env.hpp"
#include "support/toolchain_fixture.hpp"

namespace cutile::compile {
namespace {

using test_support::read_binary;
using test_support::reference_bytecode_path;

class CompileReference : public test_support::ToolchainTest,
                         public ::testing::WithParamInterface<std::string> {};

bool is_elf(const std::vector<uint8_t>& bytes) {
  return bytes.size() > 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F';
}

TEST_P(CompileReference, GivesACubin) {
  CompileOptions options;
  options.gpu_name = GetParam();
  auto result = compile_to_cubin(toolchain, read_binary(reference_bytecode_path()), options, "vadd");
  EXPECT_TRUE(is_elf(result.cubin)) << "not an ELF file, " << result.cubin.size() << " bytes";
  EXPECT_GT(result.seconds, 0);
  std::printf("tileiras vadd %s: %.3f s, %zu bytes\n", options.gpu_name.c_str(), result.seconds,
              result.cubin.size());
}

TEST_P(CompileReference, GivesACubinWithLineinfoAtO0) {
  CompileOptions options;
  options.gpu_name = GetParam();
  options.opt_level = 0;
  options.lineinfo = true;
  EXPECT_TRUE(
      is_elf(compile_to_cubin(toolchain, read_binary(reference_bytecode_path()), options, "vadd").cubin));
}

INSTANTIATE_TEST_SUITE_P(Targets, CompileReference, ::testing::Values("sm_90", "sm_100"));

class ToolchainProbe : public test_support::ToolchainTest {};

TEST_F(ToolchainProbe, FindsACompleteToolchain) {
  EXPECT_TRUE(
      parse_release("release " + toolchain.release.substr(0, 4) + ", V" + toolchain.release).has_value());
  EXPECT_TRUE(std::filesystem::is_regular_file(toolchain.ptxas));
  EXPECT_TRUE(std::filesystem::is_regular_file(toolchain.libnvvm));
  EXPECT_TRUE(toolchain.libnvvm.string().starts_with(toolchain.cuda_home.string()));
  test_support::ScopedEnv env("CUTILE_BYTECODE_VERSION", std::nullopt);
  EXPECT_EQ(select_bytecode_version(toolchain), ir::v13_3);
}

TEST_F(ToolchainProbe, TileirdisasmPrintsTheReference) {
  if (toolchain.tileirdisasm.empty()) GTEST_SKIP() << "this toolchain has no tileirdisasm";
  auto result = run_subprocess({toolchain.tileirdisasm.string(), reference_bytecode_path().string()});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
  EXPECT_NE(result.stdout_text.find("entry @vadd("), std::string::npos) << result.stdout_text;
}

}  // namespace
}  // namespace cutile::compile
