// The language-addition kernels (bitcast, ordered loads and stores, masked scatters) compile with the
// real tileiras for sm_90.
#include <gtest/gtest.h>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/host/launch.hpp"
#include "support/lang_kernels.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

using namespace cutile;

class LangCompile : public cutile::test_support::ToolchainTest,
                    public ::testing::WithParamInterface<cutile::test_support::TracedKernel> {};

class LangCompileHints : public cutile::test_support::ToolchainTest {};

TEST_P(LangCompile, TileirasProducesACubinForSm90) {
  std::unique_ptr<ir::Module> module = GetParam().trace();
  compile::CompileOptions options;
  options.gpu_name = "sm_90";
  const compile::CompileResult result =
      compile::compile_to_cubin(toolchain, bytecode::write_bytecode(*module), options, GetParam().name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(std::string(result.cubin.begin() + 1, result.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Kernels, LangCompile, ::testing::ValuesIn(cutile::test_support::lang_kernels::all()),
                         [](const auto& p) { return p.param.name; });

// Through compile_only, as a launch does it: per-target hints reach tileiras, and the cubin cache tells
// kernels apart by them.
TEST_F(LangCompileHints, PerTargetHintsCompileAndChangeTheCacheKey) {
  namespace lk = cutile::test_support::lang_kernels;
  auto compile = [](const KernelHints& hints) {
    auto y = Tensor<float>::meta({100});
    LaunchOptions options;
    options.hints = hints;
    return compile_only("sm_90", options, lk::acquire_release_copy, y.partition({16}),
                        Tensor<float>::meta({100}));
  };
  const CompiledKernel plain = compile({});
  const CompiledKernel by_target = compile(lk::hints_by_target());
  KernelHints other_target = lk::hints_by_target();
  other_target.targets[0].second.occupancy = 4;
  const CompiledKernel other = compile(other_target);
  for (const CompiledKernel* k : {&plain, &by_target, &other}) ASSERT_GE(k->cubin.size(), 4u);
  EXPECT_NE(plain.cache_key, by_target.cache_key);
  EXPECT_NE(by_target.cache_key, other.cache_key) << "only the sm_90 entry differs";
}

}  // namespace
