// cond / when / print / assert_: the IR they trace to, against golden text in tests/golden/dsl_control/.
// CUTILE_REGENERATE_GOLDEN=1 rewrites the files (review the diff before committing it).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/dsl_control_kernels.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
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

INSTANTIATE_TEST_SUITE_P(Kernels, DslControl,
                         ::testing::ValuesIn(cutile::test_support::control_kernels::all()),
                         [](const auto& p) { return p.param.name; });

// The kernel library's GEMM and attention kernels, against tests/golden/library/.
class LibraryKernel : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(LibraryKernel, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "library", GetParam().name);
}

// while_, cat, extract, argmax/argmin, scans, batched mma, fp8 fast accumulation, not: against
// tests/golden/dsl_vocabulary/.
class DslVocabulary : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(DslVocabulary, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "dsl_vocabulary", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Kernels, DslVocabulary,
                         ::testing::ValuesIn(cutile::test_support::vocabulary_kernels::all()),
                         [](const auto& p) { return p.param.name; });

INSTANTIATE_TEST_SUITE_P(Kernels, LibraryKernel,
                         ::testing::ValuesIn(cutile::test_support::library_kernels::all()),
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

TEST(DslControl, LoopWithoutStateTracesAsTheLoopWithAnEmptyState) {
  namespace ck = cutile::test_support::control_kernels;
  const std::vector<cutile::detail::ArrayFacts> facts = {cutile::test_support::contiguous(2),
                                                         cutile::test_support::contiguous(2)};
  std::string with_empty_state =
      cutile::ir::print_module(*cutile::test_support::trace_with(&ck::chunks_with_empty_state, facts));
  const std::string without_state =
      cutile::ir::print_module(*cutile::test_support::trace_with(&ck::chunks_without_state, facts));
  const std::string name = "@chunks_with_empty_state(";
  ASSERT_NE(with_empty_state.find(name), std::string::npos) << with_empty_state;
  with_empty_state.replace(with_empty_state.find(name), name.size(), "@chunks_without_state(");
  EXPECT_EQ(without_state, with_empty_state);
}

// The ops of `opcode` anywhere in the block, regions included, in program order.
void collect_ops(const cutile::ir::Block& block, cutile::ir::Opcode opcode,
                 std::vector<const cutile::ir::Operation*>& out) {
  for (const auto& op : block.operations()) {
    if (op->opcode() == opcode) out.push_back(op.get());
    for (const auto& region : op->regions())
      for (const auto& inner : region->blocks()) collect_ops(*inner, opcode, out);
  }
}

TEST(DslControl, ForEachTileStoresOfStoreOnlyOutputsDoNotWaitForEarlierIterations) {
  auto module = cutile::test_support::trace_with(
      &cutile::test_support::control_kernels::tiles_stored_and_updated,
      {cutile::test_support::contiguous(1), cutile::test_support::contiguous(1),
       cutile::test_support::contiguous(1)});
  const auto& entry = module->functions().front()->entry_block();
  std::vector<const cutile::ir::Operation*> stores, loads;
  collect_ops(entry, cutile::ir::Opcode::store_view_tko, stores);
  collect_ops(entry, cutile::ir::Opcode::load_view_tko, loads);
  ASSERT_EQ(stores.size(), 2u);
  ASSERT_EQ(loads.size(), 2u);  // x's tile, then z's
  // y: nothing precedes the loop, so its store takes no token (not the carried one).
  EXPECT_TRUE(stores[0]->operand_groups().back().empty());
  // z: its store waits for its own load in the same iteration (joined with the carried chain), and that
  // load waits for the carried chain: z's iterations stay ordered.
  ASSERT_EQ(stores[1]->operand_groups().back().size(), 1u);
  const cutile::ir::Value* z_token = stores[1]->operand_groups().back()[0];
  ASSERT_NE(z_token->defining_op(), nullptr);
  const std::vector<cutile::ir::Value*> joined = z_token->defining_op()->operands();
  EXPECT_TRUE(z_token == loads[1]->result(1) ||
              (z_token->defining_op()->opcode() == cutile::ir::Opcode::join_tokens &&
               std::find(joined.begin(), joined.end(), loads[1]->result(1)) != joined.end()));
  ASSERT_EQ(loads[1]->operand_groups().back().size(), 1u);
  EXPECT_NE(loads[1]->operand_groups().back()[0]->owner_block(), nullptr)
      << "z's load waits for a carried token";
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
  EXPECT_NE(message.find("dsl_control_test.cpp:" + std::to_string(__LINE__ - 8)), std::string::npos)
      << message;
  EXPECT_NE(message.find("2 conversion(s) but 1 tile argument(s)"), std::string::npos) << message;
}

}  // namespace
