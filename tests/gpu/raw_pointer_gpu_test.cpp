// Raw pointer parameters on a real GPU: unchecked loads, stores and atomics through RawPtr against a host
// reference. Skipped with the reason where there is no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
#include "support/gpu_fixture.hpp"

namespace {

namespace ct = cutile;
using RawPointerGpu = cutile::test_support::GpuTest;

TEST_F(RawPointerGpu, ScatterAndCountThroughRawPointers) {
  const int32_t n = 100'003;  // ragged: the last block's lanes past n are masked off
  std::vector<int32_t> permutation(static_cast<size_t>(n));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937(9));
  auto x = ct::randn<float>({n}, *gpu, 4);
  auto to = ct::from_host<int32_t>(permutation, {n}, *gpu);
  auto y = ct::empty<float>({n}, *gpu);
  auto counts = ct::zeros<int32_t>({4}, *gpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{(n + 15) / 16, 1, 1};
  ct::launch(options, cutile::test_support::vocabulary_kernels::raw_scatter_count, ct::raw(y), ct::raw(counts),
             ct::raw(x), to, n)
      .sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  std::vector<int32_t> expected_counts(4, 0);
  for (int32_t k = 0; k < n; ++k) {
    ASSERT_EQ(hy[static_cast<size_t>(permutation[k])], 2.0f * hx[static_cast<size_t>(k)]) << k;
    ++expected_counts[static_cast<size_t>(permutation[k] % 4)];
  }
  EXPECT_EQ(counts.to_host(), expected_counts);
}

}  // namespace
