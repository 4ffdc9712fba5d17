// The builder-made example kernels compile with the real tileiras for Hopper and Blackwell.
#include <gtest/gtest.h>


#include "09_ir_builder/builder_kernels.hpp"
#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "cutile/ir/verifier.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

using namespace cutile;
using ir::ElementType;

struct Case {
  std::string name;
  std::function<std::unique_ptr<ir::Module>()> build;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (ElementType e : {ElementType::f32, ElementType::f16, ElementType::bf16}) {
    const std::string t(ir::element_type_name(e));
    out.push_back({"vector_add_" + t, [e] { return examples::vector_add_module(e, 1024); }});
    out.push_back({"row_softmax_" + t, [e] { return examples::row_softmax_module(e, 4096); }});
    out.push_back({"tiled_gemm_" + t, [e] { return examples::tiled_gemm_module(e, 128, 128, 32); }});
  }
  return out;
}

// Test names and failure messages show the case by name, not as bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class ExamplesCompile : public test_support::ToolchainTest,
                        public ::testing::WithParamInterface<std::tuple<Case, std::string>> {};

TEST_P(ExamplesCompile, TileirasProducesACubin) {
  const auto& [c, gpu] = GetParam();
  std::unique_ptr<ir::Module> module = c.build();
  ir::verify_module(*module);
  compile::CompileOptions options;
  options.gpu_name = gpu;
  const compile::CompileResult result =
      compile::compile_to_cubin(toolchain, bytecode::write_bytecode(*module), options, c.name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(result.cubin[0], 0x7F);
  EXPECT_EQ(result.cubin[1], 'E');
  EXPECT_EQ(result.cubin[2], 'L');
  EXPECT_EQ(result.cubin[3], 'F');
}

INSTANTIATE_TEST_SUITE_P(Builder, ExamplesCompile,
                         ::testing::Combine(::testing::ValuesIn(cases()), ::testing::Values("sm_90", "sm_100")),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param).name + "_" + std::get<1>(param_info.param);
                         });

}  // namespace
