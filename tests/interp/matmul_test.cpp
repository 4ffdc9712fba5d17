// The matmul op on the CPU interpreter through its launcher, both kernels, every dtype, ragged sizes that
// leave partial tiles on every edge, against a float64 product of the same (rounded) inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "cutile/op/run.hpp"
#include "gemm/matmul.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::to_double;

template <ct::Element E>
void check(int64_t m, int64_t n, int64_t k, bool persistent) {
  const ct::Device cpu = ct::Device::cpu();
  auto a = ct::randn<E>({m, k}, cpu, 1), b = ct::randn<E>({k, n}, cpu, 2);
  auto c = ct::empty<E>({m, n}, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), 3);
  ct::op::run(ct::kernels::matmul_op, target, {&c, &a, &b}, {persistent});
  const std::vector<double> ha = to_double(a), hb = to_double(b), hc = to_double(c);
  // f32 runs as tf32 (10 mantissa bits); each result is rounded to E once.
  const double rel = std::is_same_v<E, float> ? 2e-3 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = 0, scale = 0;
      for (int64_t l = 0; l < k; ++l) {
        want += ha[static_cast<size_t>(i * k + l)] * hb[static_cast<size_t>(l * n + j)];
        scale += std::abs(ha[static_cast<size_t>(i * k + l)] * hb[static_cast<size_t>(l * n + j)]);
      }
      ASSERT_NEAR(hc[static_cast<size_t>(i * n + j)], want, rel * (scale + std::abs(want)) + 1e-6)
          << m << "x" << n << "x" << k << (persistent ? " persistent" : "") << " at " << i << ", " << j;
    }
}

TEST(CpuMatmul, BothKernelsMatchFloat64) {
  for (bool persistent : {false, true}) {
    check<float>(130, 70, 45, persistent);
    check<ct::f16>(257, 515, 64, persistent);
    check<ct::bf16>(5, 3, 100, persistent);
  }
}

}  // namespace
