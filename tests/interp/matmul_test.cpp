// The matmul op on the CPU interpreter through its launcher: both kernels, every dtype, both transposes,
// every tile candidate, ragged sizes that leave partial tiles on every edge, against a float64 product of
// the same (rounded) inputs; and the op's checks of transposed operands.
#include <gtest/gtest.h>

#include <cmath>

#include "cutile/op/error.hpp"
#include "cutile/op/run.hpp"
#include "gemm/matmul.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::to_double;

struct Case {
  int64_t m, n, k;
  bool trans_a = false, trans_b = false, persistent = false;
  int64_t config = -1;
};

template <ct::Element E>
void check(const Case& p) {
  const ct::Device cpu = ct::Device::cpu();
  // a and b as stored: (K, M) and (N, K) when transposed.
  auto a = ct::randn<E>(p.trans_a ? std::vector<int64_t>{p.k, p.m} : std::vector<int64_t>{p.m, p.k}, cpu, 1);
  auto b = ct::randn<E>(p.trans_b ? std::vector<int64_t>{p.n, p.k} : std::vector<int64_t>{p.k, p.n}, cpu, 2);
  auto c = ct::empty<E>({p.m, p.n}, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), 3);
  ct::op::run(ct::kernels::matmul_op, target, {&c, &a, &b}, {p.trans_a, p.trans_b, p.persistent, p.config});
  const std::vector<double> ha = to_double(a), hb = to_double(b), hc = to_double(c);
  auto a_at = [&](int64_t i, int64_t l) { return ha[static_cast<size_t>(p.trans_a ? l * p.m + i : i * p.k + l)]; };
  auto b_at = [&](int64_t l, int64_t j) { return hb[static_cast<size_t>(p.trans_b ? j * p.k + l : l * p.n + j)]; };
  // f32 runs as tf32 (10 mantissa bits); each result is rounded to E once.
  const double rel = std::is_same_v<E, float> || std::is_same_v<E, ct::f16> ? 2e-3
                     : std::is_same_v<E, ct::bf16>                          ? 1.6e-2
                                                                            : 0.13;  // f8: 2 or 3 mantissa bits
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      double want = 0, scale = 0;
      for (int64_t l = 0; l < p.k; ++l) {
        want += a_at(i, l) * b_at(l, j);
        scale += std::abs(a_at(i, l) * b_at(l, j));
      }
      ASSERT_NEAR(hc[static_cast<size_t>(i * p.n + j)], want, rel * (scale + std::abs(want)) + 1e-6)
          << p.m << "x" << p.n << "x" << p.k << " trans " << p.trans_a << p.trans_b << " persistent " << p.persistent
          << " config " << p.config << " at " << i << ", " << j;
    }
}

TEST(CpuMatmul, BothKernelsMatchFloat64) {
  for (bool persistent : {false, true}) {
    check<float>({130, 70, 45, false, false, persistent});
    check<ct::f16>({257, 515, 64, false, false, persistent});
    check<ct::bf16>({5, 3, 100, false, false, persistent});
  }
}

TEST(CpuMatmul, TransposedOperandsMatchFloat64) {
  for (bool persistent : {false, true})
    for (bool trans_a : {false, true})
      for (bool trans_b : {false, true}) {
        check<ct::bf16>({70, 33, 50, trans_a, trans_b, persistent});
        check<ct::f8e5m2>({40, 17, 70, trans_a, trans_b, persistent});
      }
  check<ct::f8e4m3fn>({33, 40, 64, true, false, false});
}

TEST(CpuMatmul, EveryTileCandidateMatchesFloat64) {
  for (int64_t config = 0; config < static_cast<int64_t>(ct::kernels::kMatmulTiles.size()); ++config)
    check<ct::f16>({300, 260, 70, false, true, false, config});
  for (int64_t config = 0; config < static_cast<int64_t>(ct::kernels::kPersistentMatmulTiles.size()); ++config)
    check<ct::f16>({300, 260, 70, true, false, true, config});
}

// The op's error for `run` with the given operands' shapes.
std::string refusal(std::vector<int64_t> a_shape, std::vector<int64_t> b_shape, bool trans_a, bool trans_b,
                    int64_t config = -1) {
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<ct::f16>(a_shape, cpu, 1), b = ct::randn<ct::f16>(b_shape, cpu, 2);
  auto c = ct::empty<ct::f16>({4, 4}, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), 3);
  try {
    ct::op::run(ct::kernels::matmul_op, target, {&c, &a, &b}, {trans_a, trans_b, false, config});
  } catch (const ct::op::OpError& e) {
    return e.what();
  }
  return "";
}

TEST(CpuMatmul, TransposedOperandsAreCheckedAsGiven) {
  EXPECT_EQ(refusal({8, 4}, {8, 4}, true, false), "");  // a stored (K 8, M 4), b (K 8, N 4)
  EXPECT_EQ(refusal({4, 8}, {4, 8}, false, true), "");  // a (M 4, K 8), b stored (N 4, K 8)
  const std::string m_from_a = refusal({4, 8}, {4, 8}, true, false);  // a stored (K 4, M 8): c is not (8, 8)
  EXPECT_NE(m_from_a.find("c (f16[4, 4] on cpu): dim 0 must be M = 8 (M from a's dim 1)"), std::string::npos)
      << m_from_a;
  const std::string k_mismatch = refusal({4, 8}, {9, 4}, false, true);  // b stored (N 9, K 4), a has K 8
  EXPECT_NE(k_mismatch.find("b (f16[9, 4] on cpu) (given transposed: trans_b): dim 1 must be K = 8"),
            std::string::npos)
      << k_mismatch;
  EXPECT_NE(refusal({4, 8}, {8, 4}, false, false, 4).find("config is 4"), std::string::npos);
}

}  // namespace
