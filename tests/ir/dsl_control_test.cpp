// cond / when / print / assert_: the IR they trace to, against golden text in tests/golden/dsl_control/.
// CUTILE_REGENERATE_GOLDEN=1 rewrites the files (review the diff before committing it).
#include <gtest/gtest.h>

#include "support/dsl_control_kernels.hpp"
#include "support/error_of.hpp"
#include "support/library_kernels.hpp"
#include "support/traced_golden.hpp"

namespace {

using cutile::test_support::TracedKernel;
namespace ct = cutile;

class DslControl : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(DslControl, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "dsl_control", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Kernels, DslControl, ::testing::ValuesIn(cutile::test_support::control_kernels::all()),
                         [](const auto& p) { return p.param.name; });

// The kernel library's GEMM and attention kernels, against tests/golden/library/.
class LibraryKernel : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(LibraryKernel, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "library", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Kernels, LibraryKernel, ::testing::ValuesIn(cutile::test_support::library_kernels::all()),
                         [](const auto& p) { return p.param.name; });

// Counts ops of `opcode` anywhere in the entry function, regions included.
size_t count_ops(const cutile::ir::Block& block, cutile::ir::Opcode opcode) {
  size_t n = 0;
  for (const auto& op : block.operations()) {
    if (op->opcode() == opcode) ++n;
    for (const auto& region : op->regions())
      for (const auto& inner : region->blocks()) n += count_ops(*inner, opcode);
  }
  return n;
}

TEST(DslControl, CondYieldsInBothBranchesAndWhenHasNoResults) {
  auto cond_module = cutile::test_support::control_kernels::all()[1].trace();  // ordered_pair
  const auto& entry = cond_module->functions().front()->entry_block();
  EXPECT_EQ(count_ops(entry, cutile::ir::Opcode::if_), 1u);
  EXPECT_EQ(count_ops(entry, cutile::ir::Opcode::yield), 2u);
  auto when_module = cutile::test_support::control_kernels::all()[2].trace();  // checked_copy
  EXPECT_EQ(count_ops(when_module->functions().front()->entry_block(), cutile::ir::Opcode::assert_), 2u);
}

TEST(DslControl, FormatConversionsSkipLiteralPercent) {
  EXPECT_EQ(ct::detail::count_format_conversions("a=%d b=%5.2f 100%%"), 2u);
  EXPECT_EQ(ct::detail::count_format_conversions("plain"), 0u);
}

void print_missing_argument(ct::Out<float, ct::Shape<16>> y, ct::Int n) {
  ct::print("n=%d m=%d\n", n);  // line checked below
  y.store(ct::zeros<float, 16>());
}

TEST(DslControl, PrintWithWrongArgumentCountIsAUserErrorAtTheCall) {
  const std::string message = cutile::test_support::error_of([] {
    cutile::test_support::trace_with(&print_missing_argument, {cutile::test_support::contiguous(1), {}});
  });
  EXPECT_NE(message.find("dsl_control_test.cpp:" + std::to_string(__LINE__ - 8)), std::string::npos) << message;
  EXPECT_NE(message.find("2 conversion(s) but 1 tile argument(s)"), std::string::npos) << message;
}

}  // namespace
