// The language additions through cutile::launch on Device::cpu() — bitcast, ordered loads and stores,
// masked scatters — checked element by element against host references from random inputs at ragged
// sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/lang_kernels.hpp"

namespace {

namespace ct = cutile;
namespace lk = cutile::test_support::lang_kernels;

template <class T>
std::vector<T> random_ints(size_t n, int64_t lo, int64_t hi, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int64_t> pick(lo, hi - 1);
  std::vector<T> out(n);
  for (T& v : out) v = static_cast<T>(pick(engine));
  return out;
}

// A CPU tensor of `shape` with every element `value` (outputs start so, to show what was not written).
ct::Tensor<float> filled(std::vector<int64_t> shape, float value) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const std::vector<float> values(static_cast<size_t>(n), value);
  return ct::from_host<float>(values, std::move(shape), ct::Device::cpu());
}

TEST(CpuBitcast, F32ToI32GivesTheIeeeBitsOfEveryValueIncludingNanAndSignedZero) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45;
  std::vector<float> hx = ct::randn<float>({n}, cpu, 31).to_host();
  hx[3] = -0.0f;
  hx[7] = std::numeric_limits<float>::quiet_NaN();
  hx[11] = -std::numeric_limits<float>::infinity();
  hx[20] = std::numeric_limits<float>::denorm_min();
  auto x = ct::from_host<float>(hx, {n}, cpu);
  auto y = ct::empty<int32_t>({n}, cpu);
  ct::launch(lk::bitcast_copy<int32_t, float, 16>, y.partition({16}), x).sync();
  const std::vector<int32_t> hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) ASSERT_EQ(hy[k], std::bit_cast<int32_t>(hx[k])) << k;
}

TEST(CpuBitcast, I16ToBf16ReadsTheBitsAsBfloat16) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 77;
  // Exponent fields 0x01..0xFE only: every pattern is a finite bf16, so the values compare exactly.
  std::vector<int16_t> hx = random_ints<int16_t>(n, -32768, 32768, 32);
  for (int16_t& v : hx) v = static_cast<int16_t>((v & ~0x7F80) | ((1 + (v & 0x7F) % 0x7D) << 7));
  auto x = ct::from_host<int16_t>(hx, {n}, cpu);
  auto y = ct::empty<ct::bf16>({n}, cpu);
  ct::launch(lk::bitcast_copy<ct::bf16, int16_t, 32>, y.partition({32}), x).sync();
  const std::vector<ct::bf16> hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) {
    ASSERT_EQ(hy[k].bits, static_cast<uint16_t>(hx[k])) << k;
    // The value is bf16's reading of those bits: the top half of an f32.
    const double expected = std::bit_cast<float>(static_cast<uint32_t>(static_cast<uint16_t>(hx[k])) << 16);
    ASSERT_EQ(ct::from_element(hy[k]), expected) << k;
  }
}

TEST(CpuBitcast, F64ToI64GivesTheIeeeBits) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 19;
  const std::vector<double> hx = ct::randn<double>({n}, cpu, 33).to_host();
  auto y = ct::empty<int64_t>({n}, cpu);
  ct::launch(lk::bitcast_copy<int64_t, double, 8>, y.partition({8}), ct::from_host<double>(hx, {n}, cpu))
      .sync();
  const std::vector<int64_t> hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) ASSERT_EQ(hy[k], std::bit_cast<int64_t>(hx[k])) << k;
}

TEST(CpuBitcast, ClearingTheSignBitThroughBitcastsIsAbs) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 37, n = 50;
  auto x = ct::randn<float>({m, n}, cpu, 34);
  auto y = ct::empty<float>({m, n}, cpu);
  ct::launch(lk::abs_by_sign_bit, y.partition({16, 32}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  int negative = 0;
  for (size_t k = 0; k < hx.size(); ++k) {
    negative += hx[k] < 0;
    ASSERT_EQ(static_cast<double>(hy[k]), std::fabs(static_cast<double>(hx[k]))) << k;
  }
  EXPECT_GT(negative, 0) << "the random input should have negative values";
}

// Orderings constrain how other threads see memory; on the interpreter, which runs blocks one after
// another, ordered loads and stores must read and write exactly what weak ones do.
TEST(CpuOrdering, AcquireLoadAndReleaseStoreMoveTheData) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 53;
  auto x = ct::randn<float>({n}, cpu, 41);
  auto y = ct::empty<float>({n}, cpu);
  ct::launch(lk::acquire_release_copy, y.partition({16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k) ASSERT_EQ(static_cast<double>(hy[k]), 2.0 * hx[k]) << k;
}

TEST(CpuOrdering, RelaxedInPlaceAccumulation) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 21, n = 35;
  auto x = ct::randn<float>({m, n}, cpu, 42);
  auto y = ct::randn<float>({m, n}, cpu, 43);
  const std::vector<float> hy0 = y.to_host();
  ct::launch(lk::relaxed_accumulate, y.partition({8, 16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t k = 0; k < hx.size(); ++k)
    ASSERT_EQ(hy[k], static_cast<float>(static_cast<double>(hy0[k]) + hx[k])) << k;
}

// A random permutation of 0..n-1.
std::vector<int32_t> permutation(size_t n, uint64_t seed) {
  std::vector<int32_t> p(n);
  for (size_t k = 0; k < n; ++k) p[k] = static_cast<int32_t>(k);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}

TEST(CpuOrdering, AcquireGatherAndReleaseScatterPermute) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 43, size = 30;
  auto x = ct::randn<float>({size}, cpu, 44);
  const std::vector<int32_t> hidx = random_ints<int32_t>(n, -4, 34, 45), hperm = permutation(n, 46);
  auto y = filled({n}, 9.0f);
  ct::launch(lk::ordered_permute, y.partition({16}), x, ct::from_host<int32_t>(hidx, {n}, cpu),
             ct::from_host<int32_t>(hperm, {n}, cpu))
      .sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t k = 0; k < hidx.size(); ++k) {
    const int32_t i = hidx[k];
    ASSERT_EQ(hy[static_cast<size_t>(hperm[k])], i >= 0 && i < size ? hx[static_cast<size_t>(i)] : -3.0f)
        << k;
  }
}

TEST(CpuOrdering, ReleasedUncheckedStoresMirrorTheTiles) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t tiles = 5, n = 16 * tiles;
  auto x = ct::randn<float>({n}, cpu, 47);
  auto y = ct::empty<float>({n}, cpu);
  ct::launch(lk::release_mirrored, y.partition({16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t t = 0; t < tiles; ++t)
    for (int64_t k = 0; k < 16; ++k)
      ASSERT_EQ(hy[static_cast<size_t>((tiles - 1 - t) * 16 + k)], hx[static_cast<size_t>(t * 16 + k)])
          << t << ", " << k;
}

TEST(CpuScatterMask, ConfinedScatterWritesOnlyWhereTheMaskHolds) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45;  // the last tile is ragged: its reversed lanes past n are dropped
  auto x = ct::randn<float>({n}, cpu, 51);
  const std::vector<int32_t> hkeep = random_ints<int32_t>(n, 0, 3, 52);
  auto y = filled({n}, 5.0f);
  ct::launch(lk::scatter_reversed_where, y.partition({16}), x, ct::from_host<int32_t>(hkeep, {n}, cpu))
      .sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  std::vector<float> expected(static_cast<size_t>(n), 5.0f);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t target = k / 16 * 16 + 15 - k % 16;
    if (hkeep[static_cast<size_t>(k)] != 0 && target < n)
      expected[static_cast<size_t>(target)] = hx[static_cast<size_t>(k)];
  }
  int masked = 0;
  for (int32_t v : hkeep) masked += v == 0;
  EXPECT_GT(masked, 0) << "the random mask should drop some lanes";
  for (size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(hy[k], expected[k]) << k;
}

TEST(CpuScatterMask, ABroadcastRowMaskWithTheTileBoundDroppingTheLastColumn) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 19, n = 37;
  auto x = ct::randn<float>({m, n}, cpu, 53);
  const std::vector<int32_t> hkeep = random_ints<int32_t>(m, 0, 2, 54);
  auto y = filled({m, n}, -2.0f);
  ct::launch(lk::scatter_rows_where, y.partition({8, 16}), x, ct::from_host<int32_t>(hkeep, {m}, cpu)).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      // Column c of the block's tile lands at c + 1, inside the same tile unless c is its last column.
      const bool written = hkeep[static_cast<size_t>(r)] != 0 && c % 16 != 0;
      const float expected = written ? hx[static_cast<size_t>(r * n + c - 1)] : -2.0f;
      ASSERT_EQ(hy[static_cast<size_t>(r * n + c)], expected) << r << ", " << c;
    }
}

TEST(CpuScatterMask, UncheckedScatterWritesAnywhereButOnlyWhereTheMaskHolds) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 39;
  auto x = ct::randn<float>({n}, cpu, 55);
  const std::vector<int32_t> hperm = permutation(n, 56), hkeep = random_ints<int32_t>(n, 0, 2, 57);
  auto y = filled({n}, 4.0f);
  ct::launch(lk::scatter_permuted_where, y.partition({16}), x, ct::from_host<int32_t>(hperm, {n}, cpu),
             ct::from_host<int32_t>(hkeep, {n}, cpu))
      .sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  std::vector<float> expected(static_cast<size_t>(n), 4.0f);
  for (size_t k = 0; k < hperm.size(); ++k)
    if (hkeep[k] != 0) expected[static_cast<size_t>(hperm[k])] = hx[k];
  for (size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(hy[k], expected[k]) << k;
}

}  // namespace
