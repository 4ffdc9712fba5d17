// The memory vocabulary — permuted loads and partitions, gathers, scatters, atomics — against golden
// text in tests/golden/memory/ (CUTILE_REGENERATE_GOLDEN=1 rewrites it; review the diff), plus the facts
// of its lowering that cuTile Python's rules fix: dim_map, masks, padding, token order.
#include <gtest/gtest.h>

#include "support/memory_kernels.hpp"
#include "support/traced_golden.hpp"

namespace {

using cutile::test_support::TracedKernel;

class Memory : public ::testing::TestWithParam<TracedKernel> {};

TEST_P(Memory, MatchesGoldenIr) {
  cutile::test_support::expect_matches_golden(*GetParam().trace(), "memory", GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Kernels, Memory, ::testing::ValuesIn(cutile::test_support::memory_kernels::all()),
                         [](const auto& p) { return p.param.name; });

namespace ct = cutile;
namespace ir = cutile::ir;
namespace mk = cutile::test_support::memory_kernels;
using cutile::test_support::contiguous;
using cutile::test_support::trace_with;

// Every op of `opcode` in program order, nested regions included.
void collect(const ir::Block& block, ir::Opcode opcode, std::vector<const ir::Operation*>& out) {
  for (const auto& op : block.operations()) {
    if (op->opcode() == opcode) out.push_back(op.get());
    for (const auto& region : op->regions())
      for (const auto& inner : region->blocks()) collect(*inner, opcode, out);
  }
}

std::vector<const ir::Operation*> ops_of(const ir::Module& m, ir::Opcode opcode) {
  std::vector<const ir::Operation*> out;
  collect(m.functions().front()->entry_block(), opcode, out);
  return out;
}

// The token operand: the last operand group, which every *_tko op ends with.
const ir::Value* token_of(const ir::Operation& op) {
  const auto& groups = op.operand_groups();
  return groups.back().empty() ? nullptr : groups.back().front();
}

TEST(MemoryLowering, APermutedPartitionCarriesItsOrderAsDimMap) {
  auto m = trace_with(&mk::store_transposed, {contiguous(2), contiguous(2)});
  auto views = ops_of(*m, ir::Opcode::make_partition_view);
  ASSERT_EQ(views.size(), 2u);
  EXPECT_EQ(views[0]->result(0)->type().dim_map(), (std::vector<int32_t>{0, 1}));  // the input's
  EXPECT_EQ(views[1]->result(0)->type().dim_map(), (std::vector<int32_t>{1, 0}));  // the output's
}

TEST(MemoryLowering, GathersOfInputsTakeNoTokenAndReadTheirPaddingWhereMasked) {
  auto m = trace_with(&mk::gather_rows, {contiguous(2), contiguous(2), contiguous(1)});
  auto loads = ops_of(*m, ir::Opcode::load_ptr_tko);
  ASSERT_EQ(loads.size(), 1u);
  const auto& groups = loads[0]->operand_groups();
  ASSERT_EQ(groups.size(), 4u);  // pointers, mask, padding, token
  EXPECT_EQ(groups[1].size(), 1u) << "a gather is always masked by the tensor's bounds";
  EXPECT_EQ(groups[2].size(), 1u) << "masked-off elements read the padding value";
  EXPECT_TRUE(groups[3].empty()) << "an In is never written during the launch";
}

// An in-place sequence on one output: store, scatter, load, store.
void store_scatter_load(ct::Out<float, ct::Shape<16>> y, ct::In<float, ct::Shape<ct::dyn>> x) {
  auto v = x.load(ct::tile<16>, {ct::block_id<0>()});
  y.store(v);
  y.scatter(ct::at(15 - ct::iota<int32_t, 16>()), v);
  y.store(y.load() * 2.0f);
}

TEST(MemoryLowering, ScattersJoinTheirOutputsTokenChain) {
  auto m = trace_with(&store_scatter_load, {contiguous(1), contiguous(1)});
  auto stores = ops_of(*m, ir::Opcode::store_view_tko);
  auto scatters = ops_of(*m, ir::Opcode::store_ptr_tko);
  auto loads = ops_of(*m, ir::Opcode::load_view_tko);
  ASSERT_EQ(stores.size(), 2u);
  ASSERT_EQ(scatters.size(), 1u);
  ASSERT_EQ(loads.size(), 2u);  // x's, then y's
  EXPECT_EQ(token_of(*loads[0]), nullptr);
  EXPECT_EQ(token_of(*scatters[0]), stores[0]->result(0)) << "the scatter waits for the store before it";
  EXPECT_EQ(token_of(*loads[1]), scatters[0]->result(0)) << "the load waits for the scatter";
  EXPECT_EQ(token_of(*stores[1]), loads[1]->result(1)) << "the last store waits for the load";
}

void two_adds_then_exchange(ct::Atomic<int32_t, ct::Shape<ct::dyn>> a, ct::Atomic<int32_t, ct::Shape<ct::dyn>> b) {
  auto k = ct::iota<int32_t, 16>();
  a.atomic_add(ct::at(k), k);
  b.atomic_add(ct::at(k), k);
  a.atomic_xchg(ct::at(k), k);
}

TEST(MemoryLowering, AtomicsAreChainedPerTensorAndNotAcrossTensors) {
  auto m = trace_with(&two_adds_then_exchange, {contiguous(1), contiguous(1)});
  auto rmw = ops_of(*m, ir::Opcode::atomic_rmw_tko);
  ASSERT_EQ(rmw.size(), 3u);
  EXPECT_EQ(token_of(*rmw[0]), nullptr);
  EXPECT_EQ(token_of(*rmw[1]), nullptr) << "b is another alias set: not ordered after a's atomics";
  EXPECT_EQ(token_of(*rmw[2]), rmw[0]->result(1)) << "a's exchange waits for a's add";
}

TEST(MemoryLowering, AtomicsInALoopCarryOneTokenPerTensor) {
  auto m = trace_with(&mk::bucket_max, {contiguous(1), contiguous(1), contiguous(1), {}});
  auto loops = ops_of(*m, ir::Opcode::for_);
  ASSERT_EQ(loops.size(), 1u);
  size_t carried_tokens = 0;
  for (const auto& r : loops[0]->results()) carried_tokens += r->type().is(ir::TypeKind::token);
  EXPECT_EQ(carried_tokens, 2u);
  auto rmw = ops_of(*m, ir::Opcode::atomic_rmw_tko);
  ASSERT_EQ(rmw.size(), 2u);
  ASSERT_NE(token_of(*rmw[0]), nullptr);
  ASSERT_NE(token_of(*rmw[1]), nullptr);
  EXPECT_NE(token_of(*rmw[0]), token_of(*rmw[1]));
  EXPECT_NE(token_of(*rmw[0])->owner_block(), nullptr) << "the token enters the body as a loop-carried value";
}

}  // namespace
