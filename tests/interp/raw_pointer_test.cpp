// Raw pointer parameters on Device::cpu(): unchecked loads, stores and atomics through RawPtr against a
// host reference, and the interpreter still refusing an access past the tensor a raw pointer came from.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
#include "support/error_of.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::error_of;
using cutile::test_support::vocabulary_kernels::raw_scatter_count;

struct Problem {
  ct::Tensor<float> x;
  ct::Tensor<int32_t> to;
  std::vector<int32_t> permutation;
};

Problem random_permutation_problem(int32_t n, const ct::Device& cpu) {
  std::vector<int32_t> permutation(static_cast<size_t>(n));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937(5));
  return {ct::randn<float>({n}, cpu, 4), ct::from_host<int32_t>(permutation, {n}, cpu), permutation};
}

TEST(CpuRawPointers, ScatterAndCountThroughRawPointers) {
  const ct::Device cpu = ct::Device::cpu();
  const int32_t n = 37;  // ragged: the third block's last 11 lanes are masked off
  const Problem p = random_permutation_problem(n, cpu);
  auto y = ct::empty<float>({n}, cpu);
  auto counts = ct::zeros<int32_t>({4}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{3, 1, 1};
  ct::launch(options, raw_scatter_count, ct::raw(y), ct::raw(counts), ct::raw(p.x), p.to, n).sync();
  const std::vector<float> hx = p.x.to_host(), hy = y.to_host();
  std::vector<int32_t> expected_counts(4, 0);
  for (int32_t k = 0; k < n; ++k) {
    EXPECT_EQ(hy[static_cast<size_t>(p.permutation[k])], 2.0f * hx[static_cast<size_t>(k)]) << k;
    ++expected_counts[static_cast<size_t>(p.permutation[k] % 4)];
  }
  EXPECT_EQ(counts.to_host(), expected_counts);
}

// The kernel trusts its offsets; the interpreter knows y's bytes and refuses the store past them.
TEST(CpuRawPointers, AnOffsetPastTheTensorIsCaughtByTheInterpreter) {
  const ct::Device cpu = ct::Device::cpu();
  const int32_t n = 20;
  const Problem p = random_permutation_problem(n, cpu);
  auto y = ct::empty<float>({10}, cpu);  // the permutation reaches up to 19
  auto counts = ct::zeros<int32_t>({4}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{2, 1, 1};
  const std::string message = error_of(
      [&] { ct::launch(options, raw_scatter_count, ct::raw(y), ct::raw(counts), ct::raw(p.x), p.to, n).sync(); });
  EXPECT_NE(message.find("store_ptr_tko"), std::string::npos) << message;
  EXPECT_NE(message.find("argument 0 (RawPtr<f32>)"), std::string::npos) << message;
}

}  // namespace
