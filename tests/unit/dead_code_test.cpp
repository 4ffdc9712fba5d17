// remove_dead_code: a loop-carried token chain that nothing after the loop reads goes, with the pure ops
// that carried it; every side effect and every value something reads stays.
#include <gtest/gtest.h>

#include "cutile/ir/builder.hpp"
#include "cutile/ir/dead_code.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/ir/verifier.hpp"

namespace {

using namespace cutile::ir;
using E = ElementType;

/// for i in [0, 8): x ← load(x_view, i); store(y_view, i, x), the store waiting for the pre-loop token and
/// its token joined into a chain the loop carries (a loop-parallel store). `after` reads the loop's token.
struct StoreLoop {
  Module module;
  Function& f;
  Builder b;
  explicit StoreLoop(bool after, bool store_waits_for_chain = false)
      : f(module.add_function("copy", {pointer_type(E::f32), pointer_type(E::f32), scalar_type(E::i32)})),
        b(f.entry_block()) {
    Value* x_view = view(f.parameter(0));
    Value* y_view = view(f.parameter(1));
    Value* entry = b.make_token();
    Value* zero = b.constant_int(E::i32, 0), *eight = b.constant_int(E::i32, 8), *one = b.constant_int(E::i32, 1);
    const auto results = b.for_loop(zero, eight, one, {entry}, [&](Builder& body, std::span<Value* const> a) {
      Value* chain = a[1];
      auto [x, unused] = body.load_view(x_view, {a[0]});
      Value* stored = body.store_view(x, y_view, {a[0]}, store_waits_for_chain ? chain : entry);
      return std::vector<Value*>{body.join_tokens({chain, stored})};
    });
    if (after) {
      auto [y, unused] = b.load_view(y_view, {zero}, results[0]);
      b.store_view(y, x_view, {zero});
    }
    b.return_();
  }
  Value* view(Value* base) {
    Value* tv = b.make_tensor_view(base, Type::tensor_view(Type::element(E::f32), {kDynamic}, {1}), {f.parameter(2)}, {});
    return b.make_partition_view(tv, {64}, PaddingValue::zero);
  }
  Operation* find_loop() const {
    for (const auto& op : f.entry_block().operations())
      if (op->opcode() == Opcode::for_) return op.get();
    return nullptr;
  }
  size_t count(Opcode opcode) const {
    size_t n = 0;
    count_in(f.body(), opcode, n);
    return n;
  }
  static void count_in(const Region& region, Opcode opcode, size_t& n) {
    for (const auto& block : region.blocks())
      for (const auto& op : block->operations()) {
        n += op->opcode() == opcode;
        for (const auto& r : op->regions()) count_in(*r, opcode, n);
      }
  }
};

TEST(DeadCode, DropsACarriedTokenChainNothingReads) {
  StoreLoop k(/*after=*/false);
  ASSERT_EQ(k.find_loop()->num_results(), 1u);
  remove_dead_code(k.f);
  const Operation* loop = k.find_loop();
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->num_results(), 0u);
  EXPECT_EQ(loop->region(0).block(0).num_arguments(), 1u);  // the induction variable alone
  EXPECT_EQ(loop->operand_groups().at(3).size(), 0u);
  EXPECT_EQ(loop->region(0).block(0).back().num_operands(), 0u);
  EXPECT_EQ(k.count(Opcode::join_tokens), 0u);
  EXPECT_EQ(k.count(Opcode::store_view_tko), 1u);  // the store stays
  EXPECT_EQ(k.count(Opcode::load_view_tko), 1u);
  EXPECT_NO_THROW(verify_module(k.module)) << print_function(k.f);
}

TEST(DeadCode, KeepsAChainReadAfterTheLoop) {
  StoreLoop k(/*after=*/true);
  const std::string before = print_function(k.f);
  remove_dead_code(k.f);
  EXPECT_EQ(print_function(k.f), before);
}

TEST(DeadCode, KeepsAChainAStoreInTheLoopWaitsFor) {
  StoreLoop k(/*after=*/false, /*store_waits_for_chain=*/true);
  const std::string before = print_function(k.f);
  remove_dead_code(k.f);
  EXPECT_EQ(print_function(k.f), before);
}

TEST(DeadCode, DropsUnusedPureOpsAndKeepsSideEffects) {
  Module module;
  Function& f = module.add_function("k", {pointer_type(E::f32), scalar_type(E::i32)});
  Builder b(f.entry_block());
  Value* tv = b.make_tensor_view(f.parameter(0), Type::tensor_view(Type::element(E::f32), {kDynamic}, {1}),
                                 {f.parameter(1)}, {});
  Value* pv = b.make_partition_view(tv, {64}, PaddingValue::zero);
  Value* zero = b.constant_int(E::i32, 0);
  auto [x, token] = b.load_view(pv, {zero});
  Value* unused_sum = b.binary(Opcode::addf, x, x);
  b.binary(Opcode::mulf, unused_sum, x);  // dead, and makes the sum dead once gone
  b.store_view(x, pv, {zero}, token);     // its result token is unused, but it writes memory
  b.return_();
  remove_dead_code(f);
  const std::string text = print_function(f);
  EXPECT_EQ(text.find("addf"), std::string::npos) << text;
  EXPECT_EQ(text.find("mulf"), std::string::npos) << text;
  EXPECT_NE(text.find("store_view_tko"), std::string::npos) << text;
  EXPECT_NE(text.find("load_view_tko"), std::string::npos) << text;
  EXPECT_NO_THROW(verify_module(module)) << text;
}

}  // namespace
