// The layer_norm_legacy op on the CPU interpreter, through its launcher (op::run on the CPU target), against
// float64 references computed from the same (rounded) inputs: every dtype and weight shift, ragged row
// counts, and row lengths that take each of its instances (rows shorter than 16, one tile with N baked in,
// two tiles with the second ragged); and a row of exactly one tile with N dynamic, which the launcher does
// not pick.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::to_double;

// |out − ref| ≤ abs + rel·|ref| everywhere, with the bounds of E's rounding of an f32 result.
template <ct::Element E>
void expect_close(const std::vector<double>& out, const std::vector<double>& ref, const std::string& what) {
  const double tol = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  ASSERT_EQ(out.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::abs(out[i] - ref[i]), tol + tol * std::abs(ref[i]))
        << what << " at " << i << ": " << out[i] << " vs " << ref[i];
}

struct Reference {
  std::vector<double> y, mean, rstd;
};

// The two-pass variance, as the kernel computes it.
Reference reference(const std::vector<double>& x, const std::vector<double>& w, const std::vector<double>& b, int64_t m,
                    int64_t n, double eps, double shift) {
  Reference r{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(m)),
              std::vector<double>(static_cast<size_t>(m))};
  for (int64_t i = 0; i < m; ++i) {
    double s = 0, ss = 0;
    for (int64_t c = 0; c < n; ++c) s += x[static_cast<size_t>(i * n + c)];
    const double mu = s / static_cast<double>(n);
    for (int64_t c = 0; c < n; ++c) ss += std::pow(x[static_cast<size_t>(i * n + c)] - mu, 2);
    const double rstd = 1.0 / std::sqrt(ss / static_cast<double>(n) + eps);
    r.mean[static_cast<size_t>(i)] = mu;
    r.rstd[static_cast<size_t>(i)] = rstd;
    for (int64_t c = 0; c < n; ++c) {
      const auto e = static_cast<size_t>(i * n + c);
      r.y[e] = (x[e] - mu) * rstd * (w[static_cast<size_t>(c)] + shift) + b[static_cast<size_t>(c)];
    }
  }
  return r;
}

struct Case {
  int64_t m, n;
};

class CpuLayerNormLegacy : public ::testing::TestWithParam<Case> {};

TEST_P(CpuLayerNormLegacy, MatchesFloat64) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu));
  auto check = [&]<ct::Element E>() {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 51), w = ct::randn<E>({n}, cpu, 52), b = ct::randn<E>({n}, cpu, 53);
    for (double shift : {0.0, 1.0}) {
      const Reference ref = reference(to_double(x), to_double(w), to_double(b), m, n, 1e-5, shift);
      auto y = ct::empty<E>({m, n}, cpu);
      auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
      ct::op::run(lib::layer_norm_legacy_op, target, {&y, &mean, &rstd, &x, &w, &b}, {1e-5, shift});
      const std::string what = name + " weight_shift " + std::to_string(shift);
      expect_close<E>(to_double(y), ref.y, "y " + what);
      expect_close<float>(to_double(mean), ref.mean, "mean " + what);
      expect_close<float>(to_double(rstd), ref.rstd, "rstd " + what);
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

// 9: one 16-column tile, N dynamic; 16, 64, 128: one tile, N baked in; 30, 45, 77, 100: two tiles of 16, 32,
// 64, 64, the second ragged.
INSTANTIATE_TEST_SUITE_P(Shapes, CpuLayerNormLegacy,
                         ::testing::Values(Case{13, 9}, Case{6, 16}, Case{5, 64}, Case{1, 128}, Case{3, 30},
                                           Case{4, 45}, Case{21, 77}, Case{37, 100}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.n); });

TEST(CpuLayerNormLegacyKernel, OneTileWithNDynamicMatchesFloat64) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 7, n = 64;
  auto x = ct::randn<float>({m, n}, cpu, 54), w = ct::randn<float>({n}, cpu, 55), b = ct::randn<float>({n}, cpu, 56);
  auto y = ct::empty<float>({m, n}, cpu);
  auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
  ct::launch(lib::layer_norm_legacy<float, 64, 1>, y.partition({1, 64}), mean.partition({1}), rstd.partition({1}), x, w,
             b, 1e-5f, 0.5f)
      .sync();
  const Reference ref = reference(to_double(x), to_double(w), to_double(b), m, n, 1e-5, 0.5);
  expect_close<float>(to_double(y), ref.y, "y");
  expect_close<float>(to_double(mean), ref.mean, "mean");
  expect_close<float>(to_double(rstd), ref.rstd, "rstd");
}

}  // namespace
