// Every dropout kernel instance the C ABI ships (capi/src/dropout.cpp),
// traced for contiguous tensors, compiles with the real tileiras for sm_90.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/bytecode/writer.hpp"
#include "cutile/compile/tileiras.hpp"
#include "cutile/compile/toolchain.hpp"
#include "elementwise/dropout.hpp"
#include "support/dsl_kernels.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::contiguous;
using cutile::test_support::trace_with;
using cutile::test_support::TracedKernel;

template <ct::Element E>
void add_dropout(std::vector<TracedKernel>& out, const std::string& dtype) {
  const auto v = contiguous(1);
  out.push_back({"dropout_" + dtype, [=] { return trace_with(&lib::dropout<E, 1024>, {v, v, {}, {}, {}}); }});
  out.push_back({"dropout_inplace_" + dtype, [=] {
                   return trace_with(&lib::dropout_inplace<E, 1024>, {v, {}, {}, {}});
                 }});
}

std::vector<TracedKernel> shipped() {
  std::vector<TracedKernel> out;
  add_dropout<float>(out, "f32");
  add_dropout<ct::f16>(out, "f16");
  add_dropout<ct::bf16>(out, "bf16");
  return out;
}

class SoftmaxDropoutCompile : public cutile::test_support::ToolchainTest,
                              public ::testing::WithParamInterface<TracedKernel> {};

TEST_P(SoftmaxDropoutCompile, TileirasProducesACubin) {
  std::unique_ptr<ct::ir::Module> module = GetParam().trace();
  const ct::compile::CompileResult result =
      ct::compile::compile_to_cubin(toolchain, ct::bytecode::write_bytecode(*module), {}, GetParam().name);
  ASSERT_GE(result.cubin.size(), 4u);
  EXPECT_EQ(std::string(result.cubin.begin() + 1, result.cubin.begin() + 4), "ELF");
}

INSTANTIATE_TEST_SUITE_P(Shipped, SoftmaxDropoutCompile, ::testing::ValuesIn(shipped()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
