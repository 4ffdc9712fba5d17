// Our reader and printer on cuTile Python 1.7 bytecode of TileGym 1.5.1's kernels: softmax, rms_norm,
// matmul and fused attention at their benchmark configurations, exported by tools/reference/export.py
// into tests/data/reference/tilegym (regenerate with scripts/export_reference.sh OP --out that dir).
// Each file must decode, print, name its entry after TileGym's kernel function and hold the memory-op
// families, reductions, loops, mma and hints that kernel is written with.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "cutile/bytecode/reader.hpp"
#include "cutile/ir/module.hpp"
#include "cutile/ir/printer.hpp"

namespace cutile {
namespace {

using ir::Opcode;

std::filesystem::path tilegym_dir() {
  return std::filesystem::path(CUTILE_SOURCE_DIR) / "tests/data/reference/tilegym";
}

void count_ops(const ir::Region& region, std::map<Opcode, int>& counts) {
  for (const auto& block : region.blocks())
    for (const auto& op : block->operations()) {
      ++counts[op->opcode()];
      for (const auto& nested : op->regions()) count_ops(*nested, counts);
    }
}

struct Expected {
  std::string file;
  std::string entry;                  // TileGym's Python function name
  std::map<Opcode, int> ops;          // exact counts of these opcodes, nested regions included
  std::string hints;                  // text the printed entry line must contain
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.file; }

class TileGymReferenceDecode : public ::testing::TestWithParam<Expected> {};

TEST_P(TileGymReferenceDecode, DecodesPrintsAndHasTheKernelStructure) {
  const Expected& want = GetParam();
  const auto read = bytecode::read_bytecode_file(tilegym_dir() / want.file);
  EXPECT_EQ(read.version, ir::v13_3);
  ASSERT_EQ(read.module->functions().size(), 1u);
  const ir::Function& entry = *read.module->functions().front();
  EXPECT_EQ(entry.name(), want.entry);

  std::map<Opcode, int> counts;
  count_ops(entry.body(), counts);
  for (const auto& [opcode, n] : want.ops)
    EXPECT_EQ(counts[opcode], n) << want.file << ": count of " << ir::op_spec(opcode).mnemonic;

  const std::string text = ir::print_module(*read.module);
  const std::string first_line = text.substr(0, text.find('\n', text.find("entry @")));
  EXPECT_NE(first_line.find("entry @" + want.entry + "("), std::string::npos) << text;
  EXPECT_NE(first_line.find(want.hints), std::string::npos) << "expected `" << want.hints << "` in:\n" << first_line;
}

// Counts as cuTile Python 1.7 writes these kernels (tileirdisasm agrees). The persistent kernels loop
// over rows (for); gather/scatter kernels use the pointer family, the others tensor views.
INSTANTIATE_TEST_SUITE_P(
    TileGym, TileGymReferenceDecode,
    ::testing::Values(
        Expected{"softmax.gather.tileirbc", "_softmax_kernel",
                 {{Opcode::load_ptr_tko, 1}, {Opcode::store_ptr_tko, 1}, {Opcode::load_view_tko, 0},
                  {Opcode::reduce, 2}, {Opcode::exp, 1}, {Opcode::for_, 1}},
                 "optimization_hints=<default = {occupancy = 4}>"},
        Expected{"softmax.multi_wave.tileirbc", "_softmax_kernel_multi_wave_full_row_reg_cached_ldg",
                 {{Opcode::load_ptr_tko, 1}, {Opcode::store_ptr_tko, 1}, {Opcode::reduce, 2}, {Opcode::exp, 1},
                  {Opcode::for_, 0}},
                 "entry @_softmax_kernel_multi_wave_full_row_reg_cached_ldg("},
        Expected{"softmax.tma.tileirbc", "_softmax_kernel_tma",
                 {{Opcode::load_view_tko, 1}, {Opcode::store_view_tko, 1}, {Opcode::load_ptr_tko, 0},
                  {Opcode::reduce, 2}, {Opcode::exp, 1}, {Opcode::divf, 1}, {Opcode::for_, 1}},
                 "optimization_hints=<default = {occupancy = 2}>"},
        Expected{"softmax.chunked.tileirbc", "_softmax_kernel_chunked",
                 {{Opcode::load_ptr_tko, 3}, {Opcode::store_ptr_tko, 1}, {Opcode::reduce, 2}, {Opcode::exp, 2},
                  {Opcode::for_, 4}},
                 "optimization_hints=<default = {occupancy = 4}>"},
        Expected{"rms_norm.static_persistent.tileirbc", "_rms_norm_kernel_static_persistent",
                 {{Opcode::load_view_tko, 2}, {Opcode::store_view_tko, 2}, {Opcode::reduce, 1}, {Opcode::rsqrt, 1},
                  {Opcode::for_, 1}},
                 "entry @_rms_norm_kernel_static_persistent("},
        Expected{"rms_norm.multi_wave_reload.tileirbc", "_rms_norm_kernel_gather",
                 {{Opcode::load_ptr_tko, 3}, {Opcode::store_ptr_tko, 2}, {Opcode::reduce, 1}, {Opcode::rsqrt, 1},
                  {Opcode::for_, 2}},
                 "entry @_rms_norm_kernel_gather("},
        Expected{"rms_norm.multi_wave_cached.tileirbc", "_rms_norm_kernel_multi_wave_cached",
                 {{Opcode::load_ptr_tko, 2}, {Opcode::store_ptr_tko, 2}, {Opcode::reduce, 1}, {Opcode::rsqrt, 1},
                  {Opcode::for_, 0}},
                 "entry @_rms_norm_kernel_multi_wave_cached("},
        Expected{"rms_norm.backward.tileirbc", "_rms_bwd_kernel",
                 {{Opcode::load_view_tko, 4}, {Opcode::store_view_tko, 2}, {Opcode::reduce, 2}, {Opcode::for_, 1}},
                 "optimization_hints=<default = {occupancy = 1}>"},
        Expected{"matmul.matmul.tileirbc", "_matmul_kernel",
                 {{Opcode::load_view_tko, 2}, {Opcode::store_view_tko, 1}, {Opcode::mmaf, 1}, {Opcode::for_, 1}},
                 "optimization_hints=<default = {num_cta_in_cga = 1, occupancy = 1}>"},
        Expected{"matmul.static_persistent.tileirbc", "_static_persistent_matmul_kernel",
                 {{Opcode::load_view_tko, 2}, {Opcode::store_view_tko, 1}, {Opcode::mmaf, 1}, {Opcode::for_, 2}},
                 "optimization_hints=<default = {num_cta_in_cga = 1, occupancy = 1}>"},
        // Causal: the masked and the unmasked K loop each hold Q·Kᵀ and P·V.
        Expected{"attention.fmha.tileirbc", "_fmha_kernel",
                 {{Opcode::load_view_tko, 5}, {Opcode::store_view_tko, 1}, {Opcode::mmaf, 4}, {Opcode::exp2, 4},
                  {Opcode::reduce, 4}, {Opcode::for_, 2}},
                 "optimization_hints=<default = {occupancy = 2}>"}),
    [](const ::testing::TestParamInfo<Expected>& param) {
      std::string name = param.param.file.substr(0, param.param.file.find(".tileirbc"));
      for (char& c : name)
        if (c == '.') c = '_';
      return name;
    });

}  // namespace
}  // namespace cutile
