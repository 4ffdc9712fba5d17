// cutile::launch on a real GPU: results, stream ordering through the borrow states, and the checks
// that need real memory (aliasing). Skipped with the reason where there is no GPU.
#include <gtest/gtest.h>

#include <cmath>

#include "01_vector_add/vector_add.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "cutile/host/launch.hpp"
#include "support/gpu_fixture.hpp"

namespace {

namespace ct = cutile;

using LaunchGpu = cutile::test_support::GpuTest;

TEST_F(LaunchGpu, VectorAddOnARaggedLength) {
  const int64_t n = 100'003;
  auto a = ct::randn<float>({n}, *gpu, 11), b = ct::randn<float>({n}, *gpu, 12);
  auto c = ct::empty<float>({n}, *gpu);
  ct::launch(examples::vector_add<float, 1024>, c.partition({1024}), a, b).sync();
  const auto ha = a.to_host(), hb = b.to_host(), hc = c.to_host();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hc[i], ha[i] + hb[i]) << i;
}

TEST_F(LaunchGpu, AnOutputAliasingAnInputIsRefused) {
  auto x = ct::randn<float>({4096}, *gpu, 13);
  // A second handle on the same memory, as foreign code could make: its own borrow state, same bytes.
  auto alias = ct::Tensor<float>::borrow(x.data(), {4096}, *gpu);
  auto c = ct::empty<float>({4096}, *gpu);
  try {
    ct::launch(examples::vector_add<float, 1024>, alias.partition({1024}), x, c);
    FAIL() << "expected a UserError";
  } catch (const ct::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 0 (Out<f32>) overlaps argument 1 (In<f32>) in memory"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("an output may not alias another argument"), std::string::npos) << e.what();
  }
}

TEST_F(LaunchGpu, ConsecutiveLaunchesOnTwoStreamsAreOrderedByTheBorrowStates) {
  const int64_t n = 1 << 22;
  ct::Stream first(*gpu), second(*gpu);
  auto a = ct::randn<float>({n}, *gpu, 14), b = ct::randn<float>({n}, *gpu, 15);
  auto c = ct::empty<float>({n}, *gpu), d = ct::empty<float>({n}, *gpu);
  ct::LaunchOptions on_first, on_second;
  on_first.stream = first;
  on_second.stream = second;
  ct::launch(on_first, examples::vector_add<float, 1024>, c.partition({1024}), a, b);
  // Reads c on another stream: must wait for the first launch without any sync from the caller.
  ct::launch(on_second, examples::vector_add<float, 1024>, d.partition({1024}), c, b).sync();
  const auto ha = a.to_host(), hb = b.to_host(), hd = d.to_host();
  for (int64_t i = 0; i < n; i += 997) ASSERT_EQ(hd[i], (ha[i] + hb[i]) + hb[i]) << i;
}

TEST_F(LaunchGpu, SoftmaxRowsSumToOne) {
  auto x = ct::randn<ct::bf16>({37, 4096}, *gpu, 16);
  auto y = ct::empty<ct::bf16>({37, 4096}, *gpu);
  ct::launch(examples::row_softmax<ct::bf16, 4096>, y.partition({1, 4096}), x).sync();
  const auto hy = y.to_host();
  for (int64_t r = 0; r < 37; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < 4096; ++c) sum += ct::from_element(hy[r * 4096 + c]);
    EXPECT_NEAR(sum, 1.0, 2e-2) << "row " << r;
  }
}

}  // namespace
