// cutile::launch on Device::cpu(): the library's GEMM and attention kernels, persistent schedules and
// outputs accessed inside loops and branches, run by the interpreter on host tensors and checked against
// float64 references; and the located errors a CPU launch reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "attention/fmha.hpp"
#include "cutile/host/launch.hpp"
#include "gemm/matmul.hpp"
#include "support/float64_reference.hpp"
#include "support/dsl_control_kernels.hpp"
#include "support/error_of.hpp"
#include "support/scoped_env.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
namespace reference = cutile::test_support::reference;
using cutile::test_support::error_of;

using cutile::test_support::to_double;

double relative_error(const std::vector<double>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(out[i])) return INFINITY;
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

struct GemmShape {
  int64_t m, n, k;
};

class CpuMatmul : public ::testing::TestWithParam<GemmShape> {};

TEST_P(CpuMatmul, EveryElementTypeMatchesFloat64) {
  const auto [m, n, k] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<class T, class C>(double tolerance, auto kernel) {
    auto a = ct::randn<T>({m, k}, cpu, 11), b = ct::randn<T>({k, n}, cpu, 12);
    auto c = ct::empty<C>({m, n}, cpu);
    ct::LaunchOptions options;
    options.grid = std::array<int64_t, 3>{((m + 31) / 32) * ((n + 31) / 32), 1, 1};  // one block per tile
    ct::launch(options, kernel, c.partition({32, 32}), a, b).sync();
    EXPECT_LE(relative_error(to_double(c), reference::matmul(to_double(a), to_double(b), m, n, k)),
              tolerance)
        << ct::element_traits<T>::name << " -> " << ct::element_traits<C>::name;
  };
  check.template operator()<ct::f16, ct::f16>(2e-3, lib::matmul<ct::f16, ct::f16, 32, 32, 16>);
  check.template operator()<ct::bf16, ct::bf16>(1e-2, lib::matmul<ct::bf16, ct::bf16, 32, 32, 16>);
  check.template operator()<ct::bf16, float>(1e-5, lib::matmul<ct::bf16, float, 32, 32, 16>);
  // f32 operands go through tf32 (10 mantissa bits) on the tensor cores.
  check.template operator()<float, float>(2e-3, lib::matmul<float, float, 32, 32, 16>);
  check.template operator()<ct::f8e4m3fn, ct::f16>(2e-3, lib::matmul<ct::f8e4m3fn, ct::f16, 32, 32, 32>);
  check.template operator()<ct::f8e5m2, float>(1e-5, lib::matmul<ct::f8e5m2, float, 32, 32, 32>);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuMatmul,
                         ::testing::Values(GemmShape{64, 64, 64}, GemmShape{37, 50, 20}, GemmShape{1, 70, 33},
                                           GemmShape{100, 3, 130}));

// The persistent GEMM under each grid size: fewer blocks than tiles, one block, more blocks than tiles.
class CpuPersistentMatmul : public ::testing::TestWithParam<int64_t> {};

TEST_P(CpuPersistentMatmul, MatchesFloat64ForAnyGrid) {
  const int64_t m = 100, n = 90, k = 40;
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<ct::f16>({m, k}, cpu, 13), b = ct::randn<ct::f16>({k, n}, cpu, 14);
  auto c = ct::empty<ct::f16>({m, n}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{GetParam(), 1, 1};
  ct::launch(options, lib::persistent_matmul<ct::f16, ct::f16, 16, 32, 16, 3>, c.partition({16, 32}), a, b)
      .sync();
  EXPECT_LE(relative_error(to_double(c), reference::matmul(to_double(a), to_double(b), m, n, k)),
            2e-3);
}

INSTANTIATE_TEST_SUITE_P(Grids, CpuPersistentMatmul, ::testing::Values(1, 5, 21, 64));

// Each block adds one to every tile it is handed and records itself as the tile's owner: every tile must
// be visited exactly once, by the block the order names.
template <class Order>
void count_visits(ct::OutTiles<int32_t, ct::Shape<4, 8>> visits,
                  ct::OutTiles<int32_t, ct::Shape<4, 8>> owner) {
  ct::for_each_tile(visits, Order{},
                    [&](ct::TileIndex<int32_t, ct::Shape<4, 8>> t) { visits.store(t, visits.load(t) + 1); });
  ct::for_each_tile(owner, Order{}, [&](ct::TileIndex<int32_t, ct::Shape<4, 8>> t) {
    owner.store(t, ct::full<int32_t, 4, 8>(0) + ct::block_id<0>());
  });
}

template <class Order>
std::vector<int32_t> visit_all(int64_t blocks, std::vector<int32_t>* owners) {
  const ct::Device cpu = ct::Device::cpu();
  auto visits = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);  // 7 x 5 tiles
  auto owner = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{blocks, 1, 1};
  ct::launch(options, count_visits<Order>, visits.partition({4, 8}), owner.partition({4, 8})).sync();
  const std::vector<int32_t> all = owner.to_host();
  owners->clear();
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 5; ++j) owners->push_back(all[static_cast<size_t>(i * 4 * 40 + j * 8)]);
  return visits.to_host();
}

TEST(CpuSchedules, EveryOrderVisitsEachTileOnceAndHandsTilesOutAsDocumented) {
  std::vector<int32_t> owners;
  for (int64_t blocks : {1, 4, 35, 50}) {
    for (int32_t v : visit_all<ct::linear_t>(blocks, &owners))
      ASSERT_EQ(v, 1) << "linear, " << blocks << " blocks";
    for (size_t t = 0; t < owners.size(); ++t) EXPECT_EQ(owners[t], static_cast<int32_t>(t % blocks));
    for (int32_t v : visit_all<ct::split_t>(blocks, &owners))
      ASSERT_EQ(v, 1) << "split, " << blocks << " blocks";
    const int64_t chunk = (35 + blocks - 1) / blocks;
    for (size_t t = 0; t < owners.size(); ++t) EXPECT_EQ(owners[t], static_cast<int32_t>(t / chunk));
    for (int32_t v : visit_all<ct::grouped_t<3>>(blocks, &owners))
      ASSERT_EQ(v, 1) << "grouped, " << blocks << " blocks";
  }
  // grouped<3> over 7 x 5 tiles with one block per tile: tile (i, j) is visit number
  // 15·(i/3) + rows·j + i%3, rows = 3 except 1 in the last (short) group.
  visit_all<ct::grouped_t<3>>(35, &owners);
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      const int64_t rows = i / 3 == 2 ? 1 : 3;
      EXPECT_EQ(owners[static_cast<size_t>(i * 5 + j)], 15 * (i / 3) + rows * j + i % 3) << i << ", " << j;
    }
}

// grouped<3> of rank 3: each block adds one to every (1, 4, 8) tile it is handed and records itself as its
// owner, over a batch of two 7 x 5 tile grids.
void count_batched_visits(ct::OutTiles<int32_t, ct::Shape<1, 4, 8>> visits,
                          ct::OutTiles<int32_t, ct::Shape<1, 4, 8>> owner) {
  ct::for_each_tile(visits, ct::grouped<3>,
                    [&](ct::TileIndex<int32_t, ct::Shape<1, 4, 8>> t) { visits.store(t, visits.load(t) + 1); });
  ct::for_each_tile(owner, ct::grouped<3>, [&](ct::TileIndex<int32_t, ct::Shape<1, 4, 8>> t) {
    owner.store(t, ct::full<int32_t, 1, 4, 8>(0) + ct::block_id<0>());
  });
}

TEST(CpuSchedules, GroupedOrderOfRankThreeWalksBatchAfterBatch) {
  const ct::Device cpu = ct::Device::cpu();
  for (int64_t blocks : {1, 4, 70, 100}) {
    auto visits = ct::zeros<int32_t>({2, 7 * 4, 5 * 8}, cpu);
    auto owner = ct::zeros<int32_t>({2, 7 * 4, 5 * 8}, cpu);
    ct::LaunchOptions options;
    options.grid = std::array<int64_t, 3>{blocks, 1, 1};
    ct::launch(options, count_batched_visits, visits.partition({1, 4, 8}), owner.partition({1, 4, 8})).sync();
    for (int32_t v : visits.to_host()) ASSERT_EQ(v, 1) << blocks << " blocks";
    // Tile (q, i, j) is visit number 35·q + 15·(i/3) + rows·j + i%3 (rows = 3, or 1 in the last group),
    // handed to block (visit number) % blocks.
    const std::vector<int32_t> all = owner.to_host();
    for (int64_t q = 0; q < 2; ++q)
      for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 5; ++j) {
          const int64_t rows = i / 3 == 2 ? 1 : 3;
          const int64_t t = 35 * q + 15 * (i / 3) + rows * j + i % 3;
          EXPECT_EQ(all[static_cast<size_t>((q * 28 + i * 4) * 40 + j * 8)], t % blocks)
              << q << ", " << i << ", " << j << " on " << blocks << " blocks";
        }
  }
}

// for_block_tile: each block of a grid of one block per tile adds one to the tile the order hands it and
// records itself as its owner.
template <class Order>
void visit_one_tile(ct::OutTiles<int32_t, ct::Shape<4, 8>> visits, ct::OutTiles<int32_t, ct::Shape<4, 8>> owner) {
  ct::for_block_tile(visits, Order{},
                     [&](ct::TileIndex<int32_t, ct::Shape<4, 8>> t) { visits.store(t, visits.load(t) + 1); });
  ct::for_block_tile(owner, Order{}, [&](ct::TileIndex<int32_t, ct::Shape<4, 8>> t) {
    owner.store(t, ct::full<int32_t, 4, 8>(0) + ct::block_id<0>());
  });
}

TEST(CpuSchedules, ForBlockTileHandsEachBlockTheTileOfItsNumberInTheOrder) {
  const ct::Device cpu = ct::Device::cpu();
  auto visits = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);  // 7 x 5 tiles
  auto owner = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{35, 1, 1};
  ct::launch(options, visit_one_tile<ct::grouped_t<3>>, visits.partition({4, 8}), owner.partition({4, 8})).sync();
  for (int32_t v : visits.to_host()) ASSERT_EQ(v, 1);
  const std::vector<int32_t> all = owner.to_host();
  std::vector<int32_t> for_each_owners;
  visit_all<ct::grouped_t<3>>(35, &for_each_owners);  // for_each_tile's order, one tile per block
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 5; ++j)
      EXPECT_EQ(all[static_cast<size_t>(i * 4 * 40 + j * 8)], for_each_owners[static_cast<size_t>(i * 5 + j)])
          << i << ", " << j;
}

// Without a grid, an OutTiles kernel gets one block per SM of LaunchOptions::sm_count (at most one per
// tile), here on the interpreter whose own count is its thread count: linear hands tile t to block t % blocks.
TEST(CpuSchedules, SmCountSizesTheDefaultGrid) {
  const ct::Device cpu = ct::Device::cpu();
  for (int sms : {1, 3, 16, 64}) {
    auto visits = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);  // 7 x 5 tiles
    auto owner = ct::zeros<int32_t>({7 * 4, 5 * 8}, cpu);
    ct::LaunchOptions options;
    options.sm_count = sms;
    ct::launch(options, count_visits<ct::linear_t>, visits.partition({4, 8}), owner.partition({4, 8})).sync();
    const std::vector<int32_t> all = owner.to_host();
    int32_t highest = 0;
    for (int64_t t = 0; t < 35; ++t) {
      const int32_t block = all[static_cast<size_t>((t / 5) * 4 * 40 + (t % 5) * 8)];
      EXPECT_EQ(block, t % std::min(sms, 35)) << sms << " SMs, tile " << t;
      highest = std::max(highest, block);
    }
    EXPECT_EQ(highest + 1, std::min(sms, 35)) << sms << " SMs";
  }
}

// Outputs in loop and branch bodies: the memory tokens are carried, and the numbers come out right.
TEST(CpuControlFlow, StoresInBranchesAndInPlaceAccumulationInLoops) {
  namespace k = cutile::test_support::control_kernels;
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::randn<float>({100}, cpu, 15);
  auto y = ct::zeros<float>({100}, cpu);
  ct::launch(k::store_below, y.partition({16}), x, 3).sync();  // blocks 0..2 store, 3..6 do not
  const std::vector<float> hx = x.to_host(), hy = y.to_host();
  for (size_t i = 0; i < hx.size(); ++i) EXPECT_EQ(hy[i], i < 48 ? hx[i] : 0.0f) << i;

  auto acc = ct::empty<float>({100}, cpu);
  ct::launch(k::accumulate_in_place, acc.partition({16}), x, 5).sync();
  const std::vector<float> ha = acc.to_host();
  for (size_t i = 0; i < hx.size(); ++i) EXPECT_NEAR(ha[i], 5.0 * hx[i], 1e-5 * (1 + std::abs(hx[i]))) << i;
}

// Two outputs walked in step: tile t of both goes to one block, each output's tiles are written once, and
// the carried count is the number of tiles the block was handed.
TEST(CpuSchedules, OutputsWalkedInStepShareTheTileNumberAndCarryState) {
  namespace k = cutile::test_support::control_kernels;
  const ct::Device cpu = ct::Device::cpu();
  const int64_t rows = 27, blocks = 3;  // 7 row tiles, the last one short
  auto x = ct::randn<float>({rows, 8}, cpu, 21);
  auto y = ct::empty<float>({rows, 8}, cpu);
  auto s = ct::empty<float>({rows}, cpu);
  auto visited = ct::empty<int32_t>({blocks}, cpu);
  ct::launch(k::rows_in_step, y.partition({4, 8}), s.partition({4}), visited.partition({1}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host(), hs = s.to_host();
  for (int64_t r = 0; r < rows; ++r) {
    double row_sum = 0;
    for (int64_t c = 0; c < 8; ++c) {
      const auto i = static_cast<size_t>(r * 8 + c);
      EXPECT_EQ(hy[i], 2.0f * hx[i]) << r << ", " << c;
      row_sum += hx[i];
    }
    EXPECT_NEAR(hs[static_cast<size_t>(r)], row_sum, 1e-5) << r;
  }
  EXPECT_EQ(visited.to_host(), (std::vector<int32_t>{3, 2, 2}));
}

// A store-only output (its stores not ordered across iterations) next to one updated in place.
TEST(CpuSchedules, ForEachTileStoresAndInPlaceUpdatesEveryTileOnce) {
  namespace k = cutile::test_support::control_kernels;
  const ct::Device cpu = ct::Device::cpu();
  const int64_t n = 100;  // 7 tiles of 16, the last one short
  auto x = ct::randn<float>({n}, cpu, 31);
  auto y = ct::empty<float>({n}, cpu);
  auto z = ct::randn<float>({n}, cpu, 32);
  const std::vector<float> hz0 = z.to_host();
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{3, 1, 1};
  ct::launch(options, k::tiles_stored_and_updated, y.partition({16}), z.partition({16}), x).sync();
  const std::vector<float> hx = x.to_host(), hy = y.to_host(), hz = z.to_host();
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
    EXPECT_EQ(hy[i], hx[i]) << i;
    EXPECT_EQ(hz[i], hz0[i] + hx[i]) << i;
  }
}

struct AttentionCase {
  int64_t bh, s, heads, group, input_pos;
  bool causal;
};

class CpuAttention : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(CpuAttention, MatchesFloat64) {
  const auto [bh, s, heads, group, input_pos, causal] = GetParam();
  constexpr int64_t D = 64;
  const ct::Device cpu = ct::Device::cpu();
  const int64_t s_kv = s + input_pos;
  auto q = ct::randn<ct::f16>({bh, s, D}, cpu, 16);
  auto k = ct::randn<ct::f16>({bh / group, s_kv, D}, cpu, 17),
       v = ct::randn<ct::f16>({bh / group, s_kv, D}, cpu, 18);
  auto o = ct::empty<ct::f16>({bh, s, D}, cpu);
  if (causal)
    ct::launch(lib::fmha<ct::f16, D, 32, 16, true>, o.partition({32, 1, D}, {1, 0, 2}), q, k, v, 0.125,
               input_pos, heads, group);
  else
    ct::launch(lib::fmha<ct::f16, D, 32, 16, false>, o.partition({32, 1, D}, {1, 0, 2}), q, k, v, 0.125,
               input_pos, heads, group);
  const reference::Attention problem{bh, s, s_kv, D, heads, group, causal, input_pos, 0.125};
  const auto ref = reference::attention(to_double(q), to_double(k), to_double(v), problem);
  EXPECT_LE(relative_error(to_double(o), ref), 2e-3);
}

INSTANTIATE_TEST_SUITE_P(Cases, CpuAttention,
                         ::testing::Values(AttentionCase{2, 64, 2, 1, 0, false},
                                           AttentionCase{2, 50, 2, 1, 0, true},
                                           AttentionCase{4, 37, 4, 2, 0, true},
                                           AttentionCase{2, 33, 2, 2, 0, false},
                                           AttentionCase{2, 40, 2, 1, 9, true}));

// A CPU launch reads an input nobody wrote: the interpreter names the load, its C++ line and the block.
void copy16(ct::Out<float, ct::Shape<16>> y, ct::In<float, ct::Shape<ct::dyn>> x) {
  auto [i] = y.tile_index();
  y.store(x.load(ct::tile<16>, {i}));
}

TEST(CpuLaunchErrors, ReadingAnUninitialisedTensorIsALocatedError) {
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::empty<float>({64}, cpu);
  auto y = ct::empty<float>({64}, cpu);
  const std::string message = error_of([&] { ct::launch(copy16, y.partition({16}), x).sync(); });
  EXPECT_NE(message.find("launch_test.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("uninitialised"), std::string::npos) << message;
  EXPECT_NE(message.find("tile block (0, 0, 0)"), std::string::npos) << message;
}

TEST(CpuLaunchErrors, CpuAndMetaTensorsAreRefusedTogether) {
  const ct::Device cpu = ct::Device::cpu();
  auto y = ct::empty<float>({64}, cpu);
  const std::string message =
      error_of([&] { ct::launch(copy16, y.partition({16}), ct::Tensor<float>::meta({64})).sync(); });
  EXPECT_NE(message.find("meta tensor without memory"), std::string::npos) << message;
}

// Each block scales its (2, 4, 4) tile by 1 + its tile index: the block ids along y and z in use.
void scale_by_tile_index(ct::Out<float, ct::Shape<2, 4, 4>> y, ct::In<float, ct::Shape<ct::dyn, ct::dyn, ct::dyn>> x) {
  auto [i, j, k] = y.tile_index();
  const ct::Float scale = ct::cast<float>(i * 100 + j * 10 + k + 1);
  y.store(x.load(ct::tile<2, 4, 4>, {i, j, k}) * scale);
}

// A kernel is specialised on its grid's y and z axes having one block (their block ids are then the
// constant 0): launches on grids with and without such axes must each get their own kernel.
TEST(CpuLaunch, GridsWithAndWithoutSingleBlockAxesGetTheirOwnKernels) {
  const ct::Device cpu = ct::Device::cpu();
  for (std::array<int64_t, 3> shape : {std::array<int64_t, 3>{6, 4, 4}, {6, 12, 4}, {6, 4, 8}, {6, 12, 8},
                                       {6, 4, 4}}) {
    auto x = ct::randn<float>({shape[0], shape[1], shape[2]}, cpu, 7);
    auto y = ct::empty<float>({shape[0], shape[1], shape[2]}, cpu);
    ct::launch(scale_by_tile_index, y.partition({2, 4, 4}), x).sync();
    const std::vector<float> xs = x.to_host(), ys = y.to_host();
    for (int64_t a = 0; a < shape[0]; ++a)
      for (int64_t b = 0; b < shape[1]; ++b)
        for (int64_t c = 0; c < shape[2]; ++c) {
          const auto e = static_cast<size_t>((a * shape[1] + b) * shape[2] + c);
          const float scale = static_cast<float>(a / 2 * 100 + b / 4 * 10 + c / 4 + 1);
          ASSERT_EQ(ys[e], xs[e] * scale) << "shape " << shape[0] << "x" << shape[1] << "x" << shape[2]
                                          << " at (" << a << ", " << b << ", " << c << ")";
        }
  }
}

// A prefix partition under a smaller grid: the blocks write the tiles they cover, by the same tile index
// as an exact partition's; every element past the grid keeps its value.
TEST(CpuLaunch, PrefixPartitionWritesTheTilesItsGridCoversAndNoOthers) {
  const ct::Device cpu = ct::Device::cpu();
  const std::array<int64_t, 3> shape = {7, 10, 9};  // tiles (2, 4, 4): a tile grid of 4 x 3 x 3, ragged
  auto x = ct::randn<float>({shape[0], shape[1], shape[2]}, cpu, 8);
  const std::vector<float> kept(static_cast<size_t>(shape[0] * shape[1] * shape[2]), -7.25f);
  auto y = ct::from_host<float>(kept, {shape[0], shape[1], shape[2]}, cpu);
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{3, 1, 2};
  ct::launch(options, scale_by_tile_index, y.partition_prefix({2, 4, 4}), x).sync();
  const std::vector<float> xs = x.to_host(), ys = y.to_host();
  for (int64_t a = 0; a < shape[0]; ++a)
    for (int64_t b = 0; b < shape[1]; ++b)
      for (int64_t c = 0; c < shape[2]; ++c) {
        const auto e = static_cast<size_t>((a * shape[1] + b) * shape[2] + c);
        const bool covered = a / 2 < 3 && b / 4 < 1 && c / 4 < 2;
        const float scale = static_cast<float>(a / 2 * 100 + b / 4 * 10 + c / 4 + 1);
        ASSERT_EQ(ys[e], covered ? xs[e] * scale : -7.25f) << "(" << a << ", " << b << ", " << c << ")";
      }
}

TEST(CpuBackend, SetDefaultBackendSelectsTheDefaultDevice) {
  const ct::Backend before = ct::default_backend();
  ct::set_default_backend(ct::Backend::interpret);
  EXPECT_TRUE(ct::default_device().is_cpu());
  EXPECT_EQ(ct::default_device().describe(), "cpu");
  ct::set_default_backend(before);
}

}  // namespace
