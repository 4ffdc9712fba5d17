// Facts of the bytecode reference that the op table must reproduce.
#include <gtest/gtest.h>

#include <set>

#include "cutile/ir/op_table.hpp"

namespace {

using namespace cutile::ir;

TEST(OpTable, EveryAssignedOpcodeOnceAndInOrder) {
  std::set<std::string_view> names;
  int previous = -1;
  for (const OpSpec& s : all_ops()) {
    EXPECT_GT(int(s.opcode), previous);
    previous = int(s.opcode);
    EXPECT_TRUE(names.insert(s.mnemonic).second) << s.mnemonic;
    EXPECT_EQ(find_op(static_cast<uint8_t>(s.opcode)), &s);
    EXPECT_EQ(find_op(s.mnemonic), &s);
  }
  EXPECT_EQ(all_ops().size(), 0x7E - 12 - 6u);  // 0x00..0x7D minus the unassigned 0x19-0x24, 0x34-0x39
  EXPECT_EQ(find_op(uint8_t{0x19}), nullptr);
  EXPECT_EQ(find_op(uint8_t{0x39}), nullptr);
  EXPECT_EQ(find_op(uint8_t{0x7E}), nullptr);
}

TEST(OpTable, OpsArriveInTheirVersions) {
  EXPECT_EQ(op_spec(Opcode::atan2).since, v13_2);
  for (Opcode op : {Opcode::pack, Opcode::unpack, Opcode::alloca, Opcode::mmaf_scaled, Opcode::make_gather_scatter_view,
                    Opcode::make_strided_view, Opcode::atomic_red_view_tko})
    EXPECT_EQ(op_spec(op).since, v13_3) << op_spec(op).mnemonic;
  for (Opcode op : {Opcode::insert, Opcode::gdc_launch_dependents_tko, Opcode::gdc_wait_tko, Opcode::fpowi,
                    Opcode::memory_fence_alias_tko})
    EXPECT_EQ(op_spec(op).since, v13_4) << op_spec(op).mnemonic;
  for (Opcode op : {Opcode::multimem_load_reduce_view_tko, Opcode::multimem_reduce_view_tko,
                    Opcode::multimem_store_view_tko})
    EXPECT_EQ(op_spec(op).since, v13_5) << op_spec(op).mnemonic;
  EXPECT_EQ(static_cast<int>(Opcode::multimem_load_reduce_view_tko), 0x7B);
  EXPECT_EQ(static_cast<int>(Opcode::multimem_store_view_tko), 0x7D);
}

// As tileirdisasm 13.5 reads them: scope before token for the load-reduce and the store, token before
// scope for the reduction.
TEST(OpTable, MultimemFlagsBits) {
  const OpSpec& load = op_spec(Opcode::multimem_load_reduce_view_tko);
  EXPECT_EQ(load.flag_bit_of_attr("memory_scope", v13_5), 0);
  EXPECT_EQ(load.flag_bit_of_operand(2, v13_5), 1);
  const OpSpec& reduce = op_spec(Opcode::multimem_reduce_view_tko);
  EXPECT_EQ(reduce.flag_bit_of_operand(3, v13_5), 0);
  EXPECT_EQ(reduce.flag_bit_of_attr("memory_scope", v13_5), 1);
  const OpSpec& store = op_spec(Opcode::multimem_store_view_tko);
  EXPECT_EQ(store.flag_bit_of_attr("memory_scope", v13_5), 0);
  EXPECT_EQ(store.flag_bit_of_operand(3, v13_5), 1);
  EXPECT_EQ(enum_size(EnumKind::multimem_reduction, v13_4), 0);
  EXPECT_EQ(enum_size(EnumKind::multimem_reduction, v13_5), 8);
  EXPECT_EQ(enum_keyword(EnumKind::multimem_reduction, 6), "umin");
}

TEST(OpTable, FlagsBitsFollowTheReference) {
  const OpSpec& load_ptr = op_spec(Opcode::load_ptr_tko);
  EXPECT_EQ(load_ptr.flag_bit_of_attr("memory_scope", v13_3), 0);
  EXPECT_EQ(load_ptr.flag_bit_of_attr("optimization_hints", v13_3), 1);
  EXPECT_EQ(load_ptr.flag_bit_of_operand(1, v13_3), 2);  // mask
  EXPECT_EQ(load_ptr.flag_bit_of_operand(2, v13_3), 3);  // paddingValue
  EXPECT_EQ(load_ptr.flag_bit_of_operand(3, v13_3), 4);  // token
  const OpSpec& load_view = op_spec(Opcode::load_view_tko);
  EXPECT_EQ(load_view.flag_bit_of_operand(2, v13_3), 2);  // token
  const OpSpec& maxf = op_spec(Opcode::maxf);
  EXPECT_EQ(maxf.flag_bit_of_attr("propagate_nan", v13_1), 0);
  EXPECT_EQ(maxf.flag_bit_of_attr("flush_to_zero", v13_1), 1);
  const OpSpec& cas = op_spec(Opcode::atomic_cas_tko);
  EXPECT_EQ(cas.flag_bit_of_operand(3, v13_1), 0);  // mask
  EXPECT_EQ(cas.flag_bit_of_operand(4, v13_1), 1);  // token
}

TEST(OpTable, VersionGatedFlagsVarints) {
  EXPECT_FALSE(op_spec(Opcode::for_).has_flags(v13_1));  // unsignedCmp arrives in 13.2
  EXPECT_TRUE(op_spec(Opcode::for_).has_flags(v13_2));
  EXPECT_FALSE(op_spec(Opcode::mmaf).has_flags(v13_2));
  EXPECT_TRUE(op_spec(Opcode::mmaf).has_flags(v13_3));
  EXPECT_FALSE(op_spec(Opcode::ftoi).has_flags(v13_3));
  EXPECT_TRUE(op_spec(Opcode::ftoi).has_flags(v13_4));
  EXPECT_FALSE(op_spec(Opcode::print_tko).has_flags(v13_1));
  EXPECT_TRUE(op_spec(Opcode::print_tko).has_flags(v13_2));
  EXPECT_TRUE(op_spec(Opcode::addf).has_flags(v13_1));
  EXPECT_FALSE(op_spec(Opcode::addi).has_flags(v13_4));
}

TEST(OpTable, OperandCountsAndResults) {
  EXPECT_TRUE(op_spec(Opcode::return_).writes_operand_count());
  EXPECT_TRUE(op_spec(Opcode::extract).writes_operand_count());
  EXPECT_FALSE(op_spec(Opcode::load_ptr_tko).writes_operand_count());  // attr-sized: groups, no total
  EXPECT_FALSE(op_spec(Opcode::if_).writes_operand_count());
  EXPECT_TRUE(op_spec(Opcode::load_view_tko).variadic_results);
  EXPECT_FALSE(op_spec(Opcode::load_ptr_tko).variadic_results);
  EXPECT_EQ(op_spec(Opcode::if_).num_regions, 2);
  EXPECT_EQ(op_spec(Opcode::print_tko).results_since, v13_2);
  EXPECT_TRUE(op_spec(Opcode::yield).terminator);
  EXPECT_FALSE(op_spec(Opcode::divi).pure);
}

}  // namespace
