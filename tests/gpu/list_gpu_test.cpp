// The group GEMM on a real GPU against float64 references computed on the host: ragged members, both
// layouts of B, and TileGym's test configuration (four members of falling sizes). Skipped with the reason
// where there is no GPU.
#include <gtest/gtest.h>

#include "cutile/host/launch.hpp"
#include "gemm/group_gemm.hpp"
#include "support/gpu_fixture.hpp"
#include "support/group_gemm_check.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::check_group_gemm;
using cutile::test_support::GemmGroup;

using ListGpu = cutile::test_support::GpuTest;

TEST_F(ListGpu, GroupGemmOnRaggedMembers) {
  const std::vector<GemmGroup> ragged = {{200, 130, 77}, {1, 300, 64}, {129, 129, 129}, {64, 64, 500}};
  check_group_gemm<ct::f16, 128, 128, 64, false>(*gpu, ragged, {}, 2e-3, 1e-2);
  check_group_gemm<ct::bf16, 128, 128, 64, true>(*gpu, ragged, {}, 1e-2, 5e-2);
}

// TileGym's group_gemm test: four members, m, n and k falling 1024, 512, 256, 128; f16, its benchmark
// tile (128, 128, 128).
TEST_F(ListGpu, GroupGemmAtTileGymsTestConfiguration) {
  check_group_gemm<ct::f16, 128, 128, 128, false>(
      *gpu, {{1024, 1024, 1024}, {512, 512, 512}, {256, 256, 256}, {128, 128, 128}}, {}, 2e-3, 2e-2);
}

// Foreign memory seen twice (a second handle on an input member's bytes, with its own borrow state):
// only the byte ranges reveal the alias.
TEST_F(ListGpu, AnOutputMemberAliasingAnInputMemberIsRefused) {
  auto a0 = ct::randn<ct::f16>({64, 64}, *gpu, 1), a1 = ct::randn<ct::f16>({64, 64}, *gpu, 2);
  auto b0 = ct::randn<ct::f16>({64, 64}, *gpu, 3);
  auto alias = ct::Tensor<ct::f16>::borrow(a1.data(), {64, 64}, *gpu);
  ct::TensorList<ct::f16> as({a0, a1}), bs({b0, b0}), cs({ct::empty<ct::f16>({64, 64}, *gpu), alias});
  try {
    ct::launch(lib::group_gemm<ct::f16, 64, 64, 64, false>, cs.partition({64, 64}), as, bs);
    FAIL() << "expected a UserError";
  } catch (const ct::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 0 (OutTilesList<f16>) member 1 overlaps argument 1 (InList<f16>) "
                                         "member 1 in memory"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
