// The DSL kernels — the examples and the control-flow / debug kernels — traced, compile with the real
// tileiras for sm_90.
#include <gtest/gtest.h>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "support/dsl_control_kernels.hpp"
#include "support/dsl_kernels.hpp"
#include "support/library_kernels.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

using namespace cutile;

class DslCompile : public cutile::test_support::ToolchainTest,
                   public ::testing::WithParamInterface<cutile::test_support::TracedKernel> {};

TEST_P(DslCompile, TileirasProducesACubin) {
  std::unique_ptr<ir::Module> module = GetParam().trace();
  const compile::CompileResult result =
      compile::compile_to_cubin(toolchain, bytecode::write_bytecode(*module), {}, GetParam().name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(std::string(result.cubin.begin() + 1, result.cubin.begin() + 4), "ELF");
}

const auto kernel_name = [](const auto& p) { return p.param.name; };
INSTANTIATE_TEST_SUITE_P(Examples, DslCompile, ::testing::ValuesIn(cutile::test_support::dsl_kernels()), kernel_name);
INSTANTIATE_TEST_SUITE_P(ControlFlow, DslCompile, ::testing::ValuesIn(cutile::test_support::control_kernels::all()),
                         kernel_name);
INSTANTIATE_TEST_SUITE_P(Library, DslCompile, ::testing::ValuesIn(cutile::test_support::library_kernels::all()),
                         kernel_name);

}  // namespace
