// The IR that tracing the DSL example kernels produces, against golden text in tests/golden/dsl/.
// CUTILE_REGENERATE_GOLDEN=1 rewrites the files (review the diff before committing it).
#include <gtest/gtest.h>

#include "support/dsl_kernels.hpp"
#include "support/traced_golden.hpp"

namespace {

using cutile::test_support::TracedKernel;

class DslTrace : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(DslTrace, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "dsl", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Examples, DslTrace, ::testing::ValuesIn(cutile::test_support::dsl_kernels()),
                         [](const auto& p) { return p.param.name; });

TEST(DslTrace, EntryIsNamedAfterTheKernelFunction) {
  auto module = cutile::test_support::dsl_kernels().front().trace();
  EXPECT_EQ(module->functions().front()->name(), "vector_add");
}

TEST(DslTrace, SourceLocationsPointAtTheKernelBody) {
  auto module = cutile::test_support::dsl_kernels()[1].trace();  // row_softmax_f32
  bool found = false;
  for (const auto& op : module->functions().front()->entry_block().operations())
    if (op->opcode() == cutile::ir::Opcode::exp) {
      EXPECT_TRUE(op->location().file.ends_with("row_softmax.hpp")) << op->location().str();
      found = true;
    }
  EXPECT_TRUE(found);
}

TEST(DslTrace, TileOperationOutsideAKernelIsAUserError) {
  try {
    cutile::block_id<0>();
    FAIL() << "expected a UserError";
  } catch (const cutile::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("outside a kernel"), std::string::npos) << e.what();
  }
}

}  // namespace
