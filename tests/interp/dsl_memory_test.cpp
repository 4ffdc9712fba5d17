// The memory vocabulary through cutile::launch on Device::cpu(): permuted loads and partitions, gathers,
// scatters (confined and unchecked), checked element by element against references computed on the host
// from random inputs at ragged sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "cutile/host/launch.hpp"
#include "support/memory_kernels.hpp"

namespace {

namespace ct = cutile;
namespace mk = cutile::test_support::memory_kernels;

std::vector<int32_t> random_ints(size_t n, int32_t lo, int32_t hi, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int32_t> pick(lo, hi - 1);
  std::vector<int32_t> out(n);
  for (int32_t& v : out) v = pick(engine);
  return out;
}

TEST(CpuPermuted, TransposedLoadAndTransposedPartitionBothGiveTheTranspose) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 50, n = 37;
  auto x = ct::randn<float>({m, n}, cpu, 21);
  const std::vector<float> hx = x.to_host();
  auto check = [&](const ct::Tensor<float>& y, const char* how) {
    const std::vector<float> hy = y.to_host();
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < m; ++c)
        ASSERT_EQ(hy[static_cast<size_t>(r * m + c)], hx[static_cast<size_t>(c * n + r)])
            << how << " at " << r << ", " << c;
  };
  auto y1 = ct::empty<float>({n, m}, cpu);
  ct::launch(mk::load_transposed, y1.partition({32, 16}), x).sync();
  check(y1, "order<1, 0> load");
  auto y2 = ct::empty<float>({n, m}, cpu);
  ct::launch(mk::store_transposed, y2.partition({16, 32}, {1, 0}), x).sync();
  check(y2, "Order<1, 0> partition");
}

TEST(CpuGather, RowGatherReadsPaddingForRowIdsOutsideTheTensor) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 20, n = 40, r = 13;
  auto x = ct::randn<float>({m, n}, cpu, 22);
  const std::vector<int32_t> hrows = random_ints(r, -3, 25, 23);
  auto rows = ct::from_host<int32_t>(hrows, {r}, cpu);
  auto y = ct::empty<float>({r, n}, cpu);
  ct::launch(mk::gather_rows, y.partition({8, 16}), x, rows).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  int outside = 0;
  for (int64_t i = 0; i < r; ++i) {
    const int32_t row = hrows[static_cast<size_t>(i)];
    outside += row < 0 || row >= m;
    for (int64_t c = 0; c < n; ++c) {
      const float expected = row >= 0 && row < m ? hx[static_cast<size_t>(row * n + c)] : -1.5f;
      ASSERT_EQ(hy[static_cast<size_t>(i * n + c)], expected) << i << ", " << c;
    }
  }
  EXPECT_GT(outside, 0) << "the random row ids should include some outside the tensor";
}

TEST(CpuGather, MaskedGatherWith64BitIndicesReadsPaddingWhereMaskedOrOutOfBounds) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45, size = 30;
  auto x = ct::randn<float>({size}, cpu, 24);
  std::vector<int64_t> hidx;
  for (int32_t v : random_ints(n, -5, 35, 25)) hidx.push_back(v);
  const std::vector<int32_t> hkeep = random_ints(n, 0, 2, 26);
  auto idx = ct::from_host<int64_t>(hidx, {n}, cpu);
  auto keep = ct::from_host<int32_t>(hkeep, {n}, cpu);
  auto y = ct::empty<float>({n}, cpu);
  ct::launch(mk::gather_masked, y.partition({16}), x, idx, keep).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t k = 0; k < static_cast<size_t>(n); ++k) {
    const bool read = hkeep[k] != 0 && hidx[k] >= 0 && hidx[k] < size;
    ASSERT_EQ(hy[k], read ? hx[static_cast<size_t>(hidx[k])] : 7.0f) << k;
  }
}

TEST(CpuScatter, ConfinedScattersWriteOnlyTheBlocksOwnTile) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45;
  auto x = ct::randn<float>({n}, cpu, 27);
  const std::vector<float> hx = x.to_host();
  auto at = [&](int64_t k) { return k < n ? hx[static_cast<size_t>(k)] : 0.0f; };

  auto reversed = ct::empty<float>({n}, cpu);
  ct::launch(mk::scatter_reversed, reversed.partition({16}), x).sync();
  const std::vector<float> hr = reversed.to_host();
  for (int64_t p = 0; p < n; ++p) ASSERT_EQ(hr[static_cast<size_t>(p)], at(p / 16 * 16 + 15 - p % 16)) << p;

  auto shifted = ct::zeros<float>({n}, cpu);
  ct::launch(mk::scatter_shifted, shifted.partition({16}), x).sync();
  const std::vector<float> hs = shifted.to_host();
  for (int64_t p = 0; p < n; ++p) ASSERT_EQ(hs[static_cast<size_t>(p)], p % 16 >= 8 ? at(p - 8) : 0.0f) << p;
}

TEST(CpuPartialTile, HalvesOfTheBlocksTileAreSeparateAccessesClippedAtTheEdge) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 5, n = 44;  // ragged: the last row tile holds one row, the last column tile 12 columns
  auto y = ct::randn<float>({m, n}, cpu, 31);
  const std::vector<float> before = y.to_host();
  ct::launch(mk::swap_halves, y.partition({2, 16})).sync();
  const std::vector<float> after = y.to_host();
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const int64_t partner = c % 16 < 8 ? c + 8 : c - 8;  // the other half's element of the same tile
      const float want = partner < n ? before[static_cast<size_t>(r * n + partner)] : 0.0f;  // padded zero
      ASSERT_EQ(after[static_cast<size_t>(r * n + c)], want) << r << ", " << c;
    }

  try {
    ct::launch(mk::part_outside, y.partition({2, 16})).sync();
    FAIL() << "a part outside the block's tile was traced";
  } catch (const ct::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("part 2 of tile dimension 1 is outside this block's tile (2 parts)"),
              std::string::npos)
        << e.what();
  }
}

TEST(CpuScatter, UncheckedScatterAndStoreReachOtherBlocksTiles) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45;
  auto x = ct::randn<float>({n}, cpu, 28);
  const std::vector<float> hx = x.to_host();
  std::vector<int32_t> hperm(n);
  std::iota(hperm.begin(), hperm.end(), 0);
  std::shuffle(hperm.begin(), hperm.end(), std::mt19937_64(29));
  auto perm = ct::from_host<int32_t>(hperm, {n}, cpu);
  auto y = ct::empty<float>({n}, cpu);
  ct::launch(mk::scatter_permuted, y.partition({16}), x, perm).sync();
  const std::vector<float> hy = y.to_host();
  for (size_t k = 0; k < hperm.size(); ++k) ASSERT_EQ(hy[static_cast<size_t>(hperm[k])], hx[k]) << k;

  for (int64_t blocks : {1, 2, 5}) {
    auto z = ct::empty<float>({n}, cpu);
    ct::LaunchOptions options;
    options.grid = std::array<int64_t, 3>{blocks, 1, 1};
    ct::launch(options, mk::scatter_permuted_persistent, z.partition({16}), x, perm).sync();
    const std::vector<float> hz = z.to_host();
    for (size_t k = 0; k < hperm.size(); ++k)
      ASSERT_EQ(hz[static_cast<size_t>(hperm[k])], hx[k]) << blocks << " " << k;
  }

  auto mirrored = ct::zeros<float>({n}, cpu);
  ct::launch(mk::store_mirrored, mirrored.partition({16}), x).sync();
  const std::vector<float> hm = mirrored.to_host();
  for (int64_t p = 0; p < n; ++p) {
    const int64_t source = (2 - p / 16) * 16 + p % 16;  // block 2 - t wrote tile t
    ASSERT_EQ(hm[static_cast<size_t>(p)], source < n ? hx[static_cast<size_t>(source)] : 0.0f) << p;
  }
}

}  // namespace

namespace {

TEST(CpuAtomic, HistogramCountsEveryInRangeValueOnce) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 75, bins = 10;
  const std::vector<int32_t> hv = random_ints(n, -2, 12, 30);
  auto values = ct::from_host<int32_t>(hv, {n}, cpu);
  auto counts = ct::zeros<int32_t>({bins}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{(n + 15) / 16, 1, 1};
  ct::launch(options, mk::histogram, counts, values).sync();
  std::vector<int32_t> expected(bins, 0);
  for (int32_t v : hv)
    if (v >= 0 && v < bins) ++expected[static_cast<size_t>(v)];
  EXPECT_EQ(counts.to_host(), expected);
}

TEST(CpuAtomic, TileReductionsSumColumnsAcrossBlocks) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 45, n = 37;
  auto x = ct::randn<float>({m, n}, cpu, 31);
  const std::vector<float> hx = x.to_host();
  std::vector<float> start(n);
  for (int64_t c = 0; c < n; ++c) start[static_cast<size_t>(c)] = 0.25f * static_cast<float>(c);
  auto total = ct::from_host<float>(start, {n}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{(m + 15) / 16, (n + 15) / 16, 1};
  ct::launch(options, mk::column_sums, total, x).sync();
  const std::vector<float> ht = total.to_host();
  for (int64_t c = 0; c < n; ++c) {
    double expected = 0.25 * static_cast<double>(c);
    for (int64_t r = 0; r < m; ++r) expected += hx[static_cast<size_t>(r * n + c)];
    EXPECT_NEAR(ht[static_cast<size_t>(c)], expected, 1e-4 * (1 + std::abs(expected))) << c;
  }
}

TEST(CpuAtomic, CompareAndSwapLetsExactlyOneClaimantWinEachSlot) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45, slot_count = 12;
  const std::vector<int32_t> hw = random_ints(n, -1, 14, 32);  // some ids want no slot or a missing one
  auto wanted = ct::from_host<int32_t>(hw, {n}, cpu);
  auto slots = ct::from_host<int32_t>(std::vector<int32_t>(slot_count, -1), {slot_count}, cpu);
  auto won = ct::empty<int32_t>({n}, cpu);
  ct::launch(mk::claim_slots, won.partition({16}), slots, wanted).sync();
  const std::vector<int32_t> hs = slots.to_host(), hwon = won.to_host();
  for (int64_t s = 0; s < slot_count; ++s) {
    int winners = 0, claimants = 0;
    for (int64_t k = 0; k < n; ++k) {
      if (hw[static_cast<size_t>(k)] != s) continue;
      ++claimants;
      winners += hwon[static_cast<size_t>(k)];
      if (hwon[static_cast<size_t>(k)]) {
        EXPECT_EQ(hs[static_cast<size_t>(s)], k) << "slot " << s;
      }
    }
    EXPECT_EQ(winners, claimants ? 1 : 0) << "slot " << s;
    if (!claimants) {
      EXPECT_EQ(hs[static_cast<size_t>(s)], -1) << "slot " << s;
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const int32_t s = hw[static_cast<size_t>(k)];
    if (s < 0 || s >= slot_count) {
      EXPECT_EQ(hwon[static_cast<size_t>(k)], 0) << "id " << k << " wanted the missing slot " << s;
    }
  }
}

TEST(CpuAtomic, MaxAndOrInARuntimeLoopMatchTheReference) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 90, chunks = 2;  // 3 blocks of 2 chunks of 16: the last chunks are ragged or empty
  std::vector<int64_t> hv;
  for (int32_t v : random_ints(n, -1000000, 1000000, 33)) hv.push_back(int64_t{v} * 4096);
  auto values = ct::from_host<int64_t>(hv, {n}, cpu);
  auto best = ct::from_host<int64_t>(std::vector<int64_t>(5, INT64_MIN), {5}, cpu);
  auto seen = ct::zeros<int64_t>({5}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{3, 1, 1};
  ct::launch(options, mk::bucket_max, best, seen, values, chunks).sync();
  std::vector<int64_t> expected_best(5, INT64_MIN), expected_seen(5, 0);
  for (int64_t k = 0; k < n; ++k) {
    expected_best[static_cast<size_t>(k % 5)] =
        std::max(expected_best[static_cast<size_t>(k % 5)], hv[static_cast<size_t>(k)]);
    expected_seen[static_cast<size_t>(k % 5)] |= int64_t{1} << (k % 8);
  }
  EXPECT_EQ(best.to_host(), expected_best);
  EXPECT_EQ(seen.to_host(), expected_seen);
}

TEST(CpuAtomic, ExchangeReturnsTheReplacedValues) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 45;
  auto x = ct::randn<float>({n}, cpu, 34), before = ct::randn<float>({n}, cpu, 35);
  const std::vector<float> hx = x.to_host(), hb = before.to_host();
  auto out = ct::empty<float>({n}, cpu);
  ct::launch(mk::exchange_cells, out.partition({16}), before, x).sync();
  EXPECT_EQ(out.to_host(), hb);
  EXPECT_EQ(before.to_host(), hx);
}

}  // namespace

namespace {

TEST(CpuViews, StridedLoadsReadOverlappingWindows) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 40, n = 37;
  auto x = ct::randn<float>({m, n}, cpu, 36);
  const std::vector<float> hx = x.to_host();
  auto y = ct::empty<float>({m / 8 * 16, n}, cpu);  // one 16-row window per step of 8
  ct::launch(mk::overlapping_rows, y.partition({16, 16}), x).sync();
  const std::vector<float> hy = y.to_host();
  for (int64_t r = 0; r < m / 8 * 16; ++r) {
    const int64_t source = r / 16 * 8 + r % 16;
    for (int64_t c = 0; c < n; ++c)
      ASSERT_EQ(hy[static_cast<size_t>(r * n + c)],
                source < m ? hx[static_cast<size_t>(source * n + c)] : 0.0f)
          << r << ", " << c;
  }
}

// A partition holds the elements of its view, not the storage: a launch may read a view of the same
// buffer that shares no element with it, whether a separate half or interleaved rows.
TEST(CpuViews, PartitionAndInputMayBeDisjointViewsOfOneBuffer) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 48;  // ragged against the (32, 16) tile
  struct Layout {
    const char* name;
    std::vector<int64_t> strides;
    int64_t y_offset, x_offset;
  };
  for (const Layout& layout : {Layout{"halves", {n, 1}, 0, n * n}, Layout{"interleaved rows", {2 * n, 1}, 0, n}}) {
    SCOPED_TRACE(layout.name);
    auto buffer = ct::randn<float>({2 * n, n}, cpu, 41);
    const std::vector<float> before = buffer.to_host();
    auto x = buffer.as_strided({n, n}, layout.strides, layout.x_offset);
    const std::vector<float> hx = x.to_host();
    auto y = buffer.as_strided({n, n}, layout.strides, layout.y_offset).partition({32, 16});
    ct::launch(mk::load_transposed, y, x).sync();
    EXPECT_EQ(x.to_host(), hx);               // the other view stays readable while y is live
    EXPECT_THROW(buffer.to_host(), ct::UserError);  // the whole buffer does not
    const std::vector<float> hy = std::move(y).unpartition().to_host();
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c)
        ASSERT_EQ(hy[static_cast<size_t>(r * n + c)], hx[static_cast<size_t>(c * n + r)]) << r << ", " << c;
    EXPECT_EQ(x.to_host(), hx);
    EXPECT_NE(buffer.to_host(), before);
  }
}

TEST(CpuViews, SlicesAreClampedIntoTheirTensor) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 5, n = 37, width = 32;
  auto x = ct::randn<float>({m, n}, cpu, 37);
  const std::vector<float> hx = x.to_host();
  for (auto [lo, hi] :
       {std::pair{5, 25}, std::pair{-3, 100}, std::pair{10, 60}}) {  // every tile starts inside
    auto y = ct::empty<float>({m, width}, cpu);
    ct::launch(mk::column_slice, y.partition({1, 16}), x, lo, hi).sync();
    const std::vector<float> hy = y.to_host();
    const int64_t first = std::clamp<int64_t>(lo, 0, n), last = std::clamp<int64_t>(hi, first, n);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t c = 0; c < width; ++c) {
        const float expected = first + c < last ? hx[static_cast<size_t>(r * n + first + c)] : 0.0f;
        ASSERT_EQ(hy[static_cast<size_t>(r * width + c)], expected)
            << "slice [" << lo << ", " << hi << ") at " << r << ", " << c;
      }
  }
}

TEST(CpuViews, GathersFromASliceStayInsideIt) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t size = 50, n = 45, lo = 10, hi = 30;
  auto x = ct::randn<float>({size}, cpu, 38);
  const std::vector<float> hx = x.to_host();
  const std::vector<int32_t> hidx = random_ints(n, -4, 26, 39);
  auto idx = ct::from_host<int32_t>(hidx, {n}, cpu);
  auto y = ct::empty<float>({n}, cpu);
  ct::launch(mk::gather_from_slice, y.partition({16}), x, idx, lo, hi).sync();
  const std::vector<float> hy = y.to_host();
  for (size_t k = 0; k < static_cast<size_t>(n); ++k) {
    const bool inside = hidx[k] >= 0 && hidx[k] < hi - lo;
    ASSERT_EQ(hy[k], inside ? hx[static_cast<size_t>(lo + hidx[k])] : 0.0f) << k;
  }
}

}  // namespace

namespace {

TEST(CpuViews, GatherScatterViewsReadTheNamedRows) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 20, n = 37, r = 13;
  auto x = ct::randn<float>({m, n}, cpu, 40);
  const std::vector<int32_t> hids = random_ints(r, 0, 24, 41);  // some past the last row
  auto ids = ct::from_host<int32_t>(hids, {r}, cpu);
  auto y = ct::empty<float>({r, n}, cpu);
  ct::launch(mk::gathered_rows, y.partition({8, 16}), x, ids).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (int64_t i = 0; i < r; ++i) {
    const int32_t row = hids[static_cast<size_t>(i)];
    for (int64_t c = 0; c < n; ++c)
      ASSERT_EQ(hy[static_cast<size_t>(i * n + c)], row < m ? hx[static_cast<size_t>(row * n + c)] : 0.0f)
          << i << ", " << c;
  }
}

}  // namespace
