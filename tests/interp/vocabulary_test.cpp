// The tile vocabulary beyond the examples, numerically: while_, cat, extract, argmax/argmin, scans,
// batched mma, fp8 fast accumulation, not and scatters through a gather-scatter view, launched on
// Device::cpu() and checked against references computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/dsl_vocabulary_kernels.hpp"

namespace {

namespace ct = cutile;
namespace k = cutile::test_support::vocabulary_kernels;

TEST(CpuVocabulary, WhileLoopCountsCollatzSteps) {
  const ct::Device cpu = ct::Device::cpu();
  std::vector<int32_t> starts = {1, 2, 3, 6, 7, 27, 97, 871};
  auto x = ct::from_host<int32_t>(starts, {8}, cpu);
  auto steps = ct::empty<int32_t>({8}, cpu);
  ct::launch(k::collatz_steps, steps.partition({1}), x).sync();
  const std::vector<int32_t> got = steps.to_host();
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t n = starts[i], count = 0;
    while (n != 1) {
      n = n % 2 == 0 ? n / 2 : 3 * n + 1;
      ++count;
    }
    EXPECT_EQ(got[i], count) << "start " << starts[i];
  }
}

TEST(CpuVocabulary, CatAndExtract) {
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::randn<float>({128}, cpu, 21);
  auto y = ct::empty<float>({100}, cpu);  // ragged: the last output tile is clipped
  ct::launch(k::swap_halves, y.partition({32}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  auto at = [&](int64_t i) { return hx[static_cast<size_t>(i)]; };
  for (int64_t t = 0; t * 32 < 100; ++t) {
    std::vector<float> joined(32);
    for (int64_t e = 0; e < 16; ++e) {
      joined[static_cast<size_t>(e)] = at(t * 32 + 16 + e);
      joined[static_cast<size_t>(16 + e)] = at(t * 32 + e);
    }
    for (int64_t e = 0; e < 32 && t * 32 + e < 100; ++e)
      EXPECT_FLOAT_EQ(hy[static_cast<size_t>(t * 32 + e)],
                      joined[static_cast<size_t>(e)] + joined[static_cast<size_t>(8 + e % 8)])
          << t << ", " << e;
  }
}

TEST(CpuVocabulary, ExtractOfARank3TileTakesOneIndexPerDimension) {
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::randn<float>({20, 32}, cpu, 22);
  auto y = ct::empty<float>({20, 32}, cpu);  // ragged rows: the last tile row is clipped
  ct::launch(k::swap_column_halves, y.partition({8, 16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t r = 0; r < 20; ++r)
    for (int64_t c = 0; c < 32; ++c) {
      const int64_t source = c / 16 * 16 + (c % 16 + 8) % 16;  // the other half of the same 16-column tile
      EXPECT_EQ(hy[static_cast<size_t>(r * 32 + c)], hx[static_cast<size_t>(r * 32 + source)])
          << r << ", " << c;
    }
}

TEST(CpuVocabulary, ArgmaxAndArgminPickTheFirstExtreme) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t rows = 10;
  std::vector<float> values(static_cast<size_t>(rows * 64));
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> small(-20, 20);  // small integers: ties are common
  for (float& v : values) v = static_cast<float>(small(rng));
  auto x = ct::from_host<float>(values, {rows, 64}, cpu);
  auto out = ct::empty<int32_t>({rows, 2}, cpu);
  ct::launch(k::row_arg_extremes, out.partition({4, 2}), x).sync();
  const std::vector<int32_t> got = out.to_host();
  for (int64_t r = 0; r < rows; ++r) {
    const auto row = values.begin() + r * 64;
    EXPECT_EQ(got[static_cast<size_t>(2 * r)], std::max_element(row, row + 64) - row) << r;
    EXPECT_EQ(got[static_cast<size_t>(2 * r + 1)], std::min_element(row, row + 64) - row) << r;
  }
}

TEST(CpuVocabulary, ForwardSumAndReverseMaxScans) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t rows = 7, cols = 50;  // ragged both ways: padded columns are zeros
  auto x = ct::randn<float>({rows, cols}, cpu, 22);
  auto y = ct::empty<float>({rows, cols}, cpu);
  ct::launch(k::row_scans, y.partition({4, 64}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> v(64, 0.0);
    for (int64_t c = 0; c < cols; ++c) v[static_cast<size_t>(c)] = hx[static_cast<size_t>(r * cols + c)];
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) {
      sum += v[static_cast<size_t>(c)];
      const double right_max = *std::max_element(v.begin() + c, v.end());
      EXPECT_NEAR(hy[static_cast<size_t>(r * cols + c)], sum + right_max, 1e-4) << r << ", " << c;
    }
  }
}

TEST(CpuVocabulary, BatchedMmaMatchesFloat64) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t batches = 3, m = 20, n = 24, kk = 40;  // ragged in every dimension
  auto a = ct::randn<ct::f16>({batches, m, kk}, cpu, 23), w = ct::randn<ct::f16>({batches, kk, n}, cpu, 24);
  auto y = ct::empty<float>({batches, m, n}, cpu);
  ct::launch(k::batched_matmul, y.partition({2, 16, 16}), a, w).sync();
  const std::vector<ct::f16> ha = a.to_host(), hw = w.to_host();
  const std::vector<float> hy = y.to_host();
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double ref = 0;
        for (int64_t p = 0; p < std::min<int64_t>(kk, 32); ++p)  // one K tile of 32: the kernel does not loop
          ref += ct::from_element(ha[static_cast<size_t>((b * m + i) * kk + p)]) *
                 ct::from_element(hw[static_cast<size_t>((b * kk + p) * n + j)]);
        EXPECT_NEAR(hy[static_cast<size_t>((b * m + i) * n + j)], ref, 1e-3 * (1 + std::abs(ref)))
            << b << i << j;
      }
}

// The interpreter computes fast accumulation exactly: the mode only changes rounding inside the tensor
// cores. The fp8 products and their f32 sums over one K tile of 32 are exact enough for 1e-5.
TEST(CpuVocabulary, Fp8FastAccumulationMatchesFloat64) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 20, n = 24, kk = 27;  // ragged: partial tiles in every dimension, zero-padded K
  auto a = ct::randn<ct::f8e4m3fn>({m, kk}, cpu, 25), w = ct::randn<ct::f8e4m3fn>({kk, n}, cpu, 26);
  auto y = ct::empty<float>({m, n}, cpu);
  ct::launch(k::fp8_matmul_fast_acc, y.partition({16, 16}), a, w).sync();
  const std::vector<ct::f8e4m3fn> ha = a.to_host(), hw = w.to_host();
  const std::vector<float> hy = y.to_host();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double ref = 0;
      for (int64_t p = 0; p < kk; ++p)
        ref += ct::from_element(ha[static_cast<size_t>(i * kk + p)]) * ct::from_element(hw[static_cast<size_t>(p * n + j)]);
      EXPECT_NEAR(hy[static_cast<size_t>(i * n + j)], ref, 1e-5 * (1 + std::abs(ref))) << i << ", " << j;
    }
}

TEST(CpuVocabulary, LogicalAndBitwiseNot) {
  const ct::Device cpu = ct::Device::cpu();
  std::vector<int32_t> values = {-5, -1, 0,  1, 7,  -100, 42,  INT32_MIN, INT32_MAX,
                                 -2, 3,  -3, 9, -9, 11,   -11, 13};
  auto x = ct::from_host<int32_t>(values, {static_cast<int64_t>(values.size())}, cpu);
  auto y = ct::empty<int32_t>({static_cast<int64_t>(values.size())}, cpu);
  ct::launch(k::not_ops, y.partition({16}), x).sync();
  const std::vector<int32_t> got = y.to_host();
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(got[i], values[i] < 0 ? ~values[i] : values[i]) << values[i];
}

TEST(CpuVocabulary, RowsScatteredThroughAGatherScatterView) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 37, n = 50;  // ragged: the last row block has 5 rows, the last column tile 18 columns
  std::vector<int32_t> permutation(static_cast<size_t>(m));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937(3));
  auto x = ct::randn<float>({m, n}, cpu, 31);
  auto to = ct::from_host<int32_t>(permutation, {m}, cpu);
  auto y = ct::empty<float>({m, n}, cpu);
  ct::launch(k::scatter_rows, y.partition({16, 32}), x, to).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c)
      ASSERT_EQ(hy[static_cast<size_t>(permutation[static_cast<size_t>(r)] * n + c)], hx[static_cast<size_t>(r * n + c)])
          << r << ", " << c;
}

}  // namespace
