// The language additions on the GPU — bitcast, acquire/release loads and stores, masked scatters,
// per-target hints — checked element by element against host references. Skipped where there is no GPU.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/gpu_fixture.hpp"
#include "support/lang_kernels.hpp"

namespace {

namespace ct = cutile;
namespace lk = cutile::test_support::lang_kernels;

class LangGpu : public cutile::test_support::GpuTest {};

std::vector<int32_t> random_ints(size_t n, int32_t lo, int32_t hi, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int32_t> pick(lo, hi - 1);
  std::vector<int32_t> out(n);
  for (int32_t& v : out) v = pick(engine);
  return out;
}

TEST_F(LangGpu, BitcastGivesTheIeeeBits) {
  const int64_t n = 10'007;
  auto x = ct::randn<float>({n}, *gpu, 71);
  auto y = ct::empty<int32_t>({n}, *gpu);
  ct::launch(lk::bitcast_copy<int32_t, float, 16>, y.partition({16}), x).sync();
  const std::vector<float> hx = x.to_host();
  const std::vector<int32_t> hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) ASSERT_EQ(hy[k], std::bit_cast<int32_t>(hx[k])) << k;
}

TEST_F(LangGpu, AcquireLoadsReleaseStoresAndPerTargetHints) {
  const int64_t n = 4'099;
  auto x = ct::randn<float>({n}, *gpu, 72);
  auto y = ct::empty<float>({n}, *gpu);
  ct::LaunchOptions options;
  options.hints = lk::hints_by_target();
  ct::launch(options, lk::acquire_release_copy, y.partition({16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) ASSERT_EQ(static_cast<double>(hy[k]), 2.0 * hx[k]) << k;
}

TEST_F(LangGpu, MaskedConfinedScatter) {
  const int64_t n = 1'001;
  auto x = ct::randn<float>({n}, *gpu, 73);
  const std::vector<int32_t> hkeep = random_ints(n, 0, 2, 74);
  const std::vector<float> start(static_cast<size_t>(n), 5.0f);
  auto y = ct::from_host<float>(start, {n}, *gpu);
  ct::launch(lk::scatter_reversed_where, y.partition({16}), x, ct::from_host<int32_t>(hkeep, {n}, *gpu))
      .sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  std::vector<float> expected = start;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t target = k / 16 * 16 + 15 - k % 16;
    if (hkeep[static_cast<size_t>(k)] != 0 && target < n)
      expected[static_cast<size_t>(target)] = hx[static_cast<size_t>(k)];
  }
  for (size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(hy[k], expected[k]) << k;
}

}  // namespace
