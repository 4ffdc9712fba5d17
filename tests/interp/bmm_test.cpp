// The bmm op on the CPU interpreter through its launcher: both kernels, every dtype, every transpose pair,
// every persistent tile candidate, ragged sizes that leave partial tiles on every edge of every batch,
// persistent grids of several sizes, against a float64 product of the same (rounded) inputs; and the op's
// checks of batched, transposed operands.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/op/error.hpp"
#include "cutile/op/run.hpp"
#include "gemm/bmm.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::to_double;

struct Case {
  int64_t q, m, n, k;
  bool ta = false, tb = false, persistent = true;
  int64_t config = -1;
  int sms = 3;
};

std::string describe(const Case& p) {
  return std::to_string(p.q) + "x" + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) +
         " transposes " + std::to_string(p.ta) + std::to_string(p.tb) + " persistent " + std::to_string(p.persistent) +
         " config " + std::to_string(p.config) + " on " + std::to_string(p.sms) + " SMs";
}

// The relative bound of one output element against Σ|a·b| + |c|: f32 operands may go through the tensor
// cores as tf32 (2^-11 per operand), f16 and bf16 results are rounded once to E (2^-11, 2^-8), and the f32
// accumulation over K adds K·2^-24 of Σ|a·b|.
template <ct::Element E>
constexpr double relative_bound() {
  if constexpr (std::is_same_v<E, float>) return 2e-3;
  if constexpr (std::is_same_v<E, ct::f16>) return 1e-3;
  return 7.8125e-3;  // bf16: 2^-7
}

// c[q] = op(a[q]) · op(b[q]) in float64, a and b as stored: (Q, K, M) and (Q, N, K) when transposed.
void expect_product(const std::vector<double>& ha, const std::vector<double>& hb, const std::vector<double>& hc,
                    const Case& p, double rel) {
  auto a_at = [&](int64_t s, int64_t i, int64_t l) {
    return ha[static_cast<size_t>(s * p.m * p.k + (p.ta ? l * p.m + i : i * p.k + l))];
  };
  auto b_at = [&](int64_t s, int64_t l, int64_t j) {
    return hb[static_cast<size_t>(s * p.k * p.n + (p.tb ? j * p.k + l : l * p.n + j))];
  };
  int misses = 0;
  for (int64_t s = 0; s < p.q; ++s)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        double want = 0, scale = 0;
        for (int64_t l = 0; l < p.k; ++l) {
          want += a_at(s, i, l) * b_at(s, l, j);
          scale += std::abs(a_at(s, i, l) * b_at(s, l, j));
        }
        const double got = hc[static_cast<size_t>((s * p.m + i) * p.n + j)];
        if (!(std::abs(got - want) <= rel * (scale + std::abs(want)) + 1e-6) && misses++ < 5)
          ADD_FAILURE() << describe(p) << ": c[" << s << ", " << i << ", " << j << "] is " << got << ", expected "
                        << want;
      }
  EXPECT_EQ(misses, 0) << describe(p);
}

// An output filled with 10^4, so that an element the kernel does not write shows.
template <ct::Element E>
ct::Tensor<E> unwritten(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const std::vector<E> values(static_cast<size_t>(n), ct::to_element<E>(1e4));
  return ct::from_host<E>(values, std::move(shape), ct::Device::cpu());
}

template <ct::Element E>
void check(const Case& p) {
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<E>(p.ta ? std::vector<int64_t>{p.q, p.k, p.m} : std::vector<int64_t>{p.q, p.m, p.k}, cpu, 1);
  auto b = ct::randn<E>(p.tb ? std::vector<int64_t>{p.q, p.n, p.k} : std::vector<int64_t>{p.q, p.k, p.n}, cpu, 2);
  auto c = unwritten<E>({p.q, p.m, p.n});
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), p.sms);
  ct::op::run(lib::bmm_op, target, {&c, &a, &b}, {p.ta, p.tb, p.persistent, p.config});
  expect_product(to_double(a), to_double(b), to_double(c), p, relative_bound<E>());
}

TEST(CpuBmm, BothKernelsMatchFloat64InEveryDtype) {
  for (bool persistent : {false, true}) {
    check<float>({3, 130, 70, 45, false, false, persistent});
    check<ct::f16>({2, 257, 131, 100, false, false, persistent});
    check<ct::bf16>({4, 5, 3, 70, false, false, persistent});
  }
}

TEST(CpuBmm, TransposedOperandsMatchFloat64InEveryDtype) {
  for (bool persistent : {false, true})
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        check<float>({2, 40, 33, 50, ta, tb, persistent});
        check<ct::f16>({3, 130, 20, 70, ta, tb, persistent});
        check<ct::bf16>({2, 70, 140, 33, ta, tb, persistent});
      }
}

TEST(CpuBmm, EveryPersistentTileCandidateMatchesFloat64) {
  for (int64_t config = 0; config < static_cast<int64_t>(lib::kPersistentBmmTiles.size()); ++config) {
    check<ct::f16>({3, 300, 260, 70, false, true, true, config});
    check<ct::bf16>({2, 100, 150, 130, true, false, true, config});
  }
}

// The launcher's persistent grid is min(SMs / 2, tiles) · occupancy blocks: 1 SM (one block), 3 SMs
// (fewer blocks than tiles), 64 (more blocks than the 2·9 tiles of 256×128 at 2×300×260).
TEST(CpuBmm, PersistentGridsSizedByTheTargetMatchFloat64) {
  for (int sms : {1, 3, 16, 64}) {
    check<ct::f16>({2, 300, 260, 64, false, false, true, -1, sms});
    check<float>({3, 40, 70, 20, true, true, true, 2, sms});
  }
}

// The persistent kernel launched directly on the grids asked for: fewer blocks than tiles, one block, more
// blocks than tiles; small tiles and a short last group (7 tile rows, GROUP 3) in each of three batches.
class CpuPersistentBmmGrid : public ::testing::TestWithParam<int64_t> {};

TEST_P(CpuPersistentBmmGrid, MatchesFloat64) {
  const Case p{3, 7 * 16 - 5, 5 * 32 - 3, 40, false, true, true};
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<ct::f16>({p.q, p.m, p.k}, cpu, 13), b = ct::randn<ct::f16>({p.q, p.n, p.k}, cpu, 14);
  auto c = unwritten<ct::f16>({p.q, p.m, p.n});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{GetParam(), 1, 1};
  ct::launch(options, lib::static_persistent_bmm<ct::f16, ct::f16, 16, 32, 16, 3, 3, false, true>,
             c.partition({1, 16, 32}), a, b)
      .sync();
  expect_product(to_double(a), to_double(b), to_double(c), p, relative_bound<ct::f16>());
}

INSTANTIATE_TEST_SUITE_P(Grids, CpuPersistentBmmGrid, ::testing::Values(1, 5, 21, 64, 200));

// The same with loop-parallel stores (ORDERED false), and the plain kernel with other tiles.
TEST(CpuBmm, ParallelStoresAndOtherPlainTilesMatchFloat64) {
  const Case p{2, 50, 70, 33, true, false, true};
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<ct::bf16>({p.q, p.k, p.m}, cpu, 21), b = ct::randn<ct::bf16>({p.q, p.k, p.n}, cpu, 22);
  auto c = unwritten<ct::bf16>({p.q, p.m, p.n});
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{4, 1, 1};
  ct::launch(options, lib::static_persistent_bmm<ct::bf16, ct::bf16, 16, 16, 16, 2, 3, true, false, false>,
             c.partition({1, 16, 16}), a, b)
      .sync();
  expect_product(to_double(a), to_double(b), to_double(c), p, relative_bound<ct::bf16>());
  auto d = unwritten<ct::bf16>({p.q, p.m, p.n});
  ct::launch(ct::LaunchOptions{}, lib::bmm<ct::bf16, ct::bf16, 32, 16, 8, true, false>,
             d.partition({32, 16, 1}, {1, 2, 0}), a, b)
      .sync();
  expect_product(to_double(a), to_double(b), to_double(d), p, relative_bound<ct::bf16>());
}

// The op's error for `run` with operands of these stored shapes.
std::string refusal(std::vector<int64_t> a_shape, std::vector<int64_t> b_shape, std::vector<int64_t> c_shape,
                    bool ta, bool tb, bool persistent = true, int64_t config = -1) {
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<ct::f16>(a_shape, cpu, 1), b = ct::randn<ct::f16>(b_shape, cpu, 2);
  auto c = ct::empty<ct::f16>(c_shape, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), 3);
  try {
    ct::op::run(lib::bmm_op, target, {&c, &a, &b}, {ta, tb, persistent, config});
  } catch (const ct::op::OpError& e) {
    return e.what();
  }
  return "";
}

TEST(CpuBmm, BatchedTransposedOperandsAreCheckedAsGiven) {
  EXPECT_EQ(refusal({2, 8, 4}, {2, 8, 6}, {2, 4, 6}, true, false), "");   // a stored (Q, K 8, M 4)
  EXPECT_EQ(refusal({2, 4, 8}, {2, 6, 8}, {2, 4, 6}, false, true), "");   // b stored (Q, N 6, K 8)
  EXPECT_EQ(refusal({2, 8, 4}, {2, 6, 8}, {2, 4, 6}, true, true), "");
  const std::string batch = refusal({2, 4, 8}, {3, 8, 6}, {2, 4, 6}, false, false);
  EXPECT_NE(batch.find("dim 0 must be Q = 2"), std::string::npos) << batch;
  const std::string k = refusal({2, 4, 8}, {2, 6, 9}, {2, 4, 6}, false, true);  // b stored (N 6, K 9), a has K 8
  EXPECT_NE(k.find("(given transposed: transpose_b): dim 2 must be K = 8"), std::string::npos) << k;
  const std::string m = refusal({2, 4, 8}, {2, 4, 6}, {2, 4, 6}, true, false);  // a stored (K 4, M 8): c is not M 8
  EXPECT_NE(m.find("dim 1 must be M = 8"), std::string::npos) << m;
  EXPECT_NE(refusal({2, 4, 8}, {2, 8, 6}, {2, 4, 6}, false, false, true, 3).find("config is 3"), std::string::npos);
  EXPECT_NE(refusal({2, 4, 8}, {2, 8, 6}, {2, 4, 6}, false, false, false, 0).find("config is 0"), std::string::npos);
}

}  // namespace
