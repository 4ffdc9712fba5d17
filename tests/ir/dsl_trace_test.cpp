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

void copy_tile(cutile::Out<float, cutile::Shape<2, 4, 4>> y,
               cutile::In<float, cutile::Shape<cutile::dyn, cutile::dyn, cutile::dyn>> x) {
  auto [i, j, k] = y.tile_index();
  y.store(x.load(cutile::tile<2, 4, 4>, {i, j, k}));
}

// The store's tile index: for each axis, whether it is the constant 0 (else a block id).
std::vector<bool> constant_store_indices(uint32_t single_block_axes) {
  using namespace cutile::ir;
  using cutile::test_support::contiguous;
  const std::vector<cutile::detail::ArrayFacts> facts = {contiguous(3), contiguous(3)};
  auto module = cutile::detail::trace_kernel(&copy_tile, facts, single_block_axes);
  for (const auto& op : module->functions().front()->entry_block().operations()) {
    if (op->opcode() != Opcode::store_view_tko) continue;
    std::vector<bool> constant;
    for (const Value* index : op->operand_groups().at(2)) {
      const Operation* def = index->defining_op();
      constant.push_back(def != nullptr && def->opcode() == Opcode::constant);
    }
    return constant;
  }
  ADD_FAILURE() << "no store";
  return {};
}

TEST(DslTrace, BlockIdsOfSingleBlockGridAxesAreConstantZero) {
  EXPECT_EQ(constant_store_indices(0), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(constant_store_indices(1u << 1), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(constant_store_indices(1u << 1 | 1u << 2), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(cutile::detail::single_block_axes({7, 1, 1}), 1u << 1 | 1u << 2);
  EXPECT_EQ(cutile::detail::single_block_axes({1, 3, 1}), 1u << 2);  // x is never specialised
}

// extent<A>(p) is p's extent A for each parameter kind with extents: the same IR value as the member.
template <class E>
void extents_of_each_kind(cutile::Out<E, cutile::Shape<4, 8>> y, cutile::OutTiles<E, cutile::Shape<8>> z,
                          cutile::In<E, cutile::Shape<cutile::dyn, 3>> x,
                          cutile::Atomic<int32_t, cutile::Shape<cutile::dyn>> a) {
  EXPECT_EQ(cutile::extent<1>(y).value(), y.template extent<1>().value());
  EXPECT_EQ(cutile::extent<0>(z).value(), z.template extent<0>().value());
  EXPECT_EQ(cutile::extent<0>(x).value(), x.template extent<0>().value());
  EXPECT_EQ(cutile::extent<1>(x).value(), x.template extent<1>().value());  // static: a constant
  EXPECT_EQ(cutile::extent<0>(a).value(), a.template extent<0>().value());
}

TEST(DslTrace, ExtentOfEachParameterKind) {
  using cutile::test_support::contiguous;
  cutile::test_support::trace_with(&extents_of_each_kind<float>, {contiguous(2), contiguous(1), contiguous(2),
                                                                  contiguous(1)});
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
