// The language additions — bitcast, ordered loads and stores, masked scatters, per-target entry hints —
// against golden text in tests/golden/lang/ (CUTILE_REGENERATE_GOLDEN=1 rewrites it; review the diff),
// plus the facts of their lowering that Tile IR's rules fix.
#include <gtest/gtest.h>

#include "support/lang_kernels.hpp"
#include "support/traced_golden.hpp"

namespace {

using cutile::test_support::TracedKernel;

class Lang : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(Lang, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "lang", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Kernels, Lang, ::testing::ValuesIn(cutile::test_support::lang_kernels::all()),
                         [](const auto& p) { return p.param.name; });

namespace ct = cutile;
namespace ir = cutile::ir;
namespace lk = cutile::test_support::lang_kernels;
using cutile::test_support::contiguous;
using cutile::test_support::trace_with;

std::vector<const ir::Operation*> ops_of(const ir::Module& m, ir::Opcode opcode) {
  std::vector<const ir::Operation*> out;
  for (const auto& op : m.functions().front()->entry_block().operations())
    if (op->opcode() == opcode) out.push_back(op.get());
  return out;
}

TEST(LangLowering, ABitcastKeepsTheShapeAndChangesOnlyTheElementType) {
  auto m = trace_with(&lk::abs_by_sign_bit, {contiguous(2), contiguous(2)});
  auto casts = ops_of(*m, ir::Opcode::bitcast);
  ASSERT_EQ(casts.size(), 2u);
  EXPECT_EQ(casts[0]->result(0)->type(), ir::tile_type({16, 32}, ir::ElementType::i32));
  EXPECT_EQ(casts[1]->result(0)->type(), ir::tile_type({16, 32}, ir::ElementType::f32));
}

// A bitcast to the same type is the tile itself: no op.
void bitcast_to_itself(ct::Out<float, ct::Shape<16>> y, ct::In<float, lk::Dyn1> x) {
  y.store(ct::bitcast<float>(x.load(ct::tile<16>, {ct::block_id<0>()})));
}

TEST(LangLowering, ABitcastToTheSameTypeEmitsNothing) {
  auto m = trace_with(&bitcast_to_itself, {contiguous(1), contiguous(1)});
  EXPECT_TRUE(ops_of(*m, ir::Opcode::bitcast).empty());
}

// The ordering and scope of a memory op: (ordering, scope or -1 when absent).
std::pair<int64_t, int64_t> ordering_of(const ir::Operation& op) {
  const ir::Attribute* scope = op.attr("memory_scope");
  return {op.attr("memory_ordering_semantics")->int_value, scope ? scope->int_value : -1};
}

int64_t value_of(ir::MemoryOrdering o) {
  return static_cast<int64_t>(o);
}
int64_t value_of(ir::MemoryScope s) {
  return static_cast<int64_t>(s);
}

TEST(LangLowering, AcquireLoadsAndReleaseStoresCarryTheirScope) {
  auto m = trace_with(&lk::acquire_release_copy, {contiguous(1), contiguous(1)});
  auto loads = ops_of(*m, ir::Opcode::load_view_tko);
  auto stores = ops_of(*m, ir::Opcode::store_view_tko);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_EQ(ordering_of(*loads[0]),
            std::pair(value_of(ir::MemoryOrdering::acquire), value_of(ir::MemoryScope::device)));
  EXPECT_EQ(ordering_of(*stores[0]),
            std::pair(value_of(ir::MemoryOrdering::release), value_of(ir::MemoryScope::device)));
}

TEST(LangLowering, WeakCarriesNoScopeAndRelaxedAlwaysDoes) {
  auto m = trace_with(&lk::relaxed_accumulate, {contiguous(2), contiguous(2)});
  auto loads = ops_of(*m, ir::Opcode::load_view_tko);
  auto stores = ops_of(*m, ir::Opcode::store_view_tko);
  ASSERT_EQ(loads.size(), 2u);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_EQ(ordering_of(*loads[0]),
            std::pair(value_of(ir::MemoryOrdering::relaxed), value_of(ir::MemoryScope::tl_blk)));
  EXPECT_EQ(ordering_of(*loads[1]), std::pair(value_of(ir::MemoryOrdering::weak), int64_t{-1}));
  EXPECT_EQ(ordering_of(*stores[0]),
            std::pair(value_of(ir::MemoryOrdering::relaxed), value_of(ir::MemoryScope::sys)));
}

TEST(LangLowering, PointerGathersAndScattersTakeTheirOrderingFromTheOptions) {
  auto m = trace_with(&lk::ordered_permute, {contiguous(1), contiguous(1), contiguous(1), contiguous(1)});
  auto gathers = ops_of(*m, ir::Opcode::load_ptr_tko);
  auto scatters = ops_of(*m, ir::Opcode::store_ptr_tko);
  ASSERT_EQ(gathers.size(), 1u);
  ASSERT_EQ(scatters.size(), 1u);
  EXPECT_EQ(ordering_of(*gathers[0]),
            std::pair(value_of(ir::MemoryOrdering::acquire), value_of(ir::MemoryScope::sys)));
  EXPECT_EQ(ordering_of(*scatters[0]),
            std::pair(value_of(ir::MemoryOrdering::release), value_of(ir::MemoryScope::tl_blk)));
  EXPECT_NE(scatters[0]->attr("optimization_hints"), nullptr) << "the scatter's latency hint";
}

// The mask operand of a scatter's store_ptr_tko and the ops that produced it.
const ir::Value* mask_of(const ir::Operation& store) {
  return store.operand_groups()[2].front();
}

TEST(LangLowering, AScatterMaskIsAndedIntoTheBoundsMask) {
  auto m = trace_with(&lk::scatter_reversed_where, {contiguous(1), contiguous(1), contiguous(1)});
  auto scatters = ops_of(*m, ir::Opcode::store_ptr_tko);
  ASSERT_EQ(scatters.size(), 1u);
  // The user's mask (cmpi of keep) is the first operand of the chain of andi ops that ends in the mask.
  const ir::Value* mask = mask_of(*scatters[0]);
  while (mask->defining_op() && mask->defining_op()->opcode() == ir::Opcode::andi)
    mask = mask->defining_op()->operand_groups()[0].front();
  ASSERT_NE(mask->defining_op(), nullptr);
  EXPECT_EQ(mask->defining_op()->opcode(), ir::Opcode::cmpi) << "keep != 0";
  const auto cmps = ops_of(*m, ir::Opcode::cmpi);
  EXPECT_EQ(cmps.size(), 3u) << "keep != 0, the tile bound and the tensor bound";
}

}  // namespace
