// What the activation ops' interpreter tests share: float64 references of the kernels' formulas, the
// tolerances of a result rounded to (or computed in) E, and (M, 2H) inputs read through their halves.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "activation/gelu.hpp"
#include "cutile/op/target.hpp"
#include "support/tensor_values.hpp"

namespace cutile::test_support::activation {

inline double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/// tanh u of the GELU forms: 'tanh' by tanh, 'none' as 2σ(2u) − 1 (TileGym's cutile form, not erf's).
inline double gelu_tanh_of(kernels::GeluApprox a, double x) {
  const double u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
  return a == kernels::GeluApprox::tanh ? std::tanh(u) : 2.0 * sigmoid(2.0 * u) - 1.0;
}
inline double gelu(kernels::GeluApprox a, double x) { return 0.5 * x * (1.0 + gelu_tanh_of(a, x)); }
/// d gelu / dx as the kernels take it: 'tanh' the derivative of its forward; 'none' Φ̃(x) + x·φ(x).
inline double gelu_grad(kernels::GeluApprox a, double x) {
  const double t = gelu_tanh_of(a, x);
  if (a == kernels::GeluApprox::tanh)
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * 0.7978845608028654 * (1.0 + 3.0 * 0.044715 * x * x);
  return 0.5 * (1.0 + t) + x * 0.3989422804014327 * std::exp(-0.5 * x * x);
}
inline double silu(double a) { return a * sigmoid(a); }
inline double silu_grad(double a) { return sigmoid(a) * (1.0 + a * (1.0 - sigmoid(a))); }

inline const char* form_name(kernels::GeluApprox a) { return a == kernels::GeluApprox::tanh ? "tanh" : "none"; }

/// The CPU interpreter as a target whose persistent grids and row splits count `sms` SMs.
inline op::Target cpu_target(int sms = 16) { return op::Target::on(Stream::default_stream(Device::cpu()), sms); }

/// |out − ref| ≤ abs + rel·|ref| everywhere, for the rounding of E (and f32's approximate division).
template <Element E>
void expect_close(const std::vector<double>& out, const std::vector<double>& ref, const std::string& what) {
  const double rel = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, f16> ? 2e-3 : 1.6e-2;
  const double abs = std::is_same_v<E, float> ? 1e-6 : std::is_same_v<E, f16> ? 1e-4 : 1e-3;
  ASSERT_EQ(out.size(), ref.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < ref.size() && bad < 5; ++i)
    if (!(std::abs(out[i] - ref[i]) <= abs + rel * std::abs(ref[i]))) {
      ADD_FAILURE() << what << " (" << element_traits<E>::name << ") at " << i << ": " << out[i] << " vs " << ref[i];
      ++bad;
    }
}

/// x (M, 2H) with rows padded to 2H + 3 elements (not contiguous), its halves a = x[:, :H] and b = x[:, H:]
/// as (M, H) views, and dy (M, H); with their values.
template <Element E>
struct Gated {
  int64_t m, h;
  Tensor<E> x, a, b, dy;
  std::vector<double> av, bv, dyv;

  Gated(int64_t rows, int64_t half, uint64_t seed)
      : m(rows),
        h(half),
        x(randn<E>({rows, 2 * half + 3}, Device::cpu(), seed).as_strided({rows, 2 * half}, {2 * half + 3, 1})),
        a(x.as_strided({rows, half}, {2 * half + 3, 1})),
        b(x.as_strided({rows, half}, {2 * half + 3, 1}, half)),
        dy(randn<E>({rows, half}, Device::cpu(), seed + 1)),
        av(to_double(a)),
        bv(to_double(b)),
        dyv(to_double(dy)) {}

  /// An (M, 2H) row-major result [ga | gb] row by row, of two (M, H) ones.
  std::vector<double> cat(const std::vector<double>& ga, const std::vector<double>& gb) const {
    std::vector<double> out;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < h; ++c) out.push_back(ga[static_cast<size_t>(r * h + c)]);
      for (int64_t c = 0; c < h; ++c) out.push_back(gb[static_cast<size_t>(r * h + c)]);
    }
    return out;
  }

  std::string shape() const { return std::to_string(m) + "x" + std::to_string(h); }
};

}  // namespace cutile::test_support::activation
