// Lists of tensors on Device::cpu(): InList members read in a runtime loop, and the group GEMM, whose
// OutTilesList schedule deals the tiles of every member to the blocks, against float64 references on
// ragged members, every block count and both layouts of B.
#include <gtest/gtest.h>

#include "cutile/host/launch.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
#include "support/group_gemm_check.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::check_group_gemm;
using cutile::test_support::GemmGroup;
using cutile::test_support::to_double;

TEST(CpuLists, MembersOfAnInListAreReadInARuntimeLoop) {
  const ct::Device cpu = ct::Device::cpu();
  // Ragged: the last tile of each member hangs over its end by a different amount and reads zeros there.
  ct::TensorList<float> xs({ct::randn<float>({40}, cpu, 1), ct::randn<float>({33}, cpu, 2), ct::randn<float>({47}, cpu, 3)});
  auto y = ct::empty<float>({47}, cpu);
  ct::launch(cutile::test_support::vocabulary_kernels::sum_of_members, y.partition({16}), xs).sync();
  std::vector<double> ref(47, 0.0);
  for (const ct::Tensor<float>& x : xs.members()) {
    const std::vector<double> v = to_double(x);
    for (size_t i = 0; i < v.size(); ++i) ref[i] += v[i];
  }
  const std::vector<double> got = to_double(y);
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-5) << i;
}

const std::vector<GemmGroup> kRaggedGroups = {{20, 24, 27}, {33, 17, 40}, {16, 16, 16}, {1, 45, 9}};

ct::LaunchOptions with_blocks(int64_t blocks) {  // 0: the default grid
  ct::LaunchOptions options;
  if (blocks) options.grid = std::array<int64_t, 3>{blocks, 1, 1};
  return options;
}

TEST(CpuLists, GroupGemmMatchesFloat64OnRaggedMembers) {
  for (int64_t blocks : {0, 1, 3, 7, 64})  // 64: more blocks than the 19 tiles of all members
    check_group_gemm<ct::f16, 16, 16, 16, false>(ct::Device::cpu(), kRaggedGroups, with_blocks(blocks), 2e-3, 2e-3);
}

TEST(CpuLists, GroupGemmWithTransposedB) {
  check_group_gemm<ct::bf16, 16, 16, 16, true>(ct::Device::cpu(), kRaggedGroups, with_blocks(5), 1e-2, 1e-2);
  // tf32: 10-bit mantissas, K = 33
  check_group_gemm<float, 16, 16, 16, true>(ct::Device::cpu(), {{17, 31, 33}}, with_blocks(2), 1e-2, 1e-2);
}

}  // namespace
