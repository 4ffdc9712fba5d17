// The memory-vocabulary kernels (permuted partitions, gathers, scatters, atomics) compile with the real
// tileiras for sm_90.
#include <gtest/gtest.h>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "support/memory_kernels.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

using namespace cutile;

class MemoryCompile : public cutile::test_support::ToolchainTest,
                      public ::testing::WithParamInterface<cutile::test_support::TracedKernel> {};

TEST_P(MemoryCompile, TileirasProducesACubinForSm90) {
  std::unique_ptr<ir::Module> module = GetParam().trace();
  compile::CompileOptions options;
  options.gpu_name = "sm_90";
  const compile::CompileResult result =
      compile::compile_to_cubin(toolchain, bytecode::write_bytecode(*module), options, GetParam().name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(std::string(result.cubin.begin() + 1, result.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Kernels, MemoryCompile, ::testing::ValuesIn(cutile::test_support::memory_kernels::all()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
