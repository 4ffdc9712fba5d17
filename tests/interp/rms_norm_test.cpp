// The rms_norm op and its backward on the CPU interpreter, through their launchers (op::run on the CPU
// target), against float64 references computed from the same (rounded) inputs: every dtype and schedule,
// with Gemma's offset and without, ragged row counts and row lengths, persistent grids sized by 1, 3 and
// 16 SMs; and the reload kernel with a gather tile shorter than the row, which the launcher does not pick.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "normalization/rms_norm.hpp"
#include "support/host_tensor.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::expect_close_stored_in;
using cutile::test_support::to_double;

struct Reference {
  std::vector<double> y, rstd;
};

Reference forward(const std::vector<double>& x, const std::vector<double>& w, int64_t m, int64_t n, double eps,
                  double offset) {
  Reference r{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(m))};
  for (int64_t i = 0; i < m; ++i) {
    double ss = 0;
    for (int64_t c = 0; c < n; ++c) ss += x[static_cast<size_t>(i * n + c)] * x[static_cast<size_t>(i * n + c)];
    const double rstd = 1.0 / std::sqrt(ss / static_cast<double>(n) + eps);
    r.rstd[static_cast<size_t>(i)] = rstd;
    for (int64_t c = 0; c < n; ++c)
      r.y[static_cast<size_t>(i * n + c)] = x[static_cast<size_t>(i * n + c)] * rstd * (offset + w[static_cast<size_t>(c)]);
  }
  return r;
}

struct Case {
  int64_t m, n;
};

class CpuRmsNorm : public ::testing::TestWithParam<Case> {};

ct::op::Target cpu_target(int sms) { return ct::op::Target::on(ct::Stream::default_stream(ct::Device::cpu()), sms); }

TEST_P(CpuRmsNorm, EveryScheduleMatchesFloat64) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<ct::Element E>() {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 11), w = ct::randn<E>({n}, cpu, 12);
    for (double offset : {0.0, 1.0}) {
      const Reference ref = forward(to_double(x), to_double(w), m, n, 1e-5, offset);
      for (auto mode : {lib::RmsNormMode::auto_, lib::RmsNormMode::static_persistent, lib::RmsNormMode::multi_wave_reload,
                        lib::RmsNormMode::multi_wave_cached}) {
        for (int sms : {1, 3, 16}) {
          ct::op::Target target = cpu_target(sms);
          auto y = ct::empty<E>({m, n}, cpu);
          auto rstd = ct::empty<float>({m}, cpu);
          ct::op::run(lib::rms_norm_op, target, {&y, &rstd, &x, &w}, {1e-5, offset, mode});
          const std::string what = name + " mode " + std::to_string(static_cast<int>(mode)) + " offset " +
                                   std::to_string(offset) + " on " + std::to_string(sms) + " SMs";
          expect_close_stored_in<E>(to_double(y), ref.y, "y " + what);
          expect_close_stored_in<float>(to_double(rstd), ref.rstd, "rstd " + what);
        }
      }
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

// dx and dweight against float64, with and without the offset, for persistent grids of several sizes.
TEST_P(CpuRmsNorm, BackwardMatchesFloat64) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<ct::Element E>() {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 41), w = ct::randn<E>({n}, cpu, 42), dy = ct::randn<E>({m, n}, cpu, 43);
    const std::vector<double> hx = to_double(x), hw = to_double(w), hdy = to_double(dy);
    std::vector<float> rstd_values;
    for (double r : forward(hx, hw, m, n, 1e-5, 0.0).rstd) rstd_values.push_back(static_cast<float>(r));
    auto rstd = ct::from_host<float>(rstd_values, {m}, cpu);
    for (double offset : {0.0, 1.0}) {
      std::vector<double> dx_ref(hx.size()), dw_ref(static_cast<size_t>(n), 0.0);
      for (int64_t i = 0; i < m; ++i) {
        const double r = rstd_values[static_cast<size_t>(i)];
        double c = 0;
        for (int64_t k = 0; k < n; ++k) {
          const auto e = static_cast<size_t>(i * n + k);
          c += hx[e] * r * hdy[e] * (offset + hw[static_cast<size_t>(k)]);
          dw_ref[static_cast<size_t>(k)] += hdy[e] * hx[e] * r;
        }
        c /= static_cast<double>(n);
        for (int64_t k = 0; k < n; ++k) {
          const auto e = static_cast<size_t>(i * n + k);
          dx_ref[e] = (hdy[e] * (offset + hw[static_cast<size_t>(k)]) - hx[e] * r * c) * r;
        }
      }
      // dweight sums M products, rounded to E: a bound that grows with the sum's magnitude.
      double scale = 0;
      for (double v : dw_ref) scale = std::max(scale, std::abs(v));
      const double rounding = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
      for (int sms : {1, 3, 16}) {
        ct::op::Target target = cpu_target(sms);
        auto dx = ct::empty<E>({m, n}, cpu);
        auto dw = ct::empty<E>({n}, cpu);
        ct::op::run(lib::rms_norm_backward_op, target, {&dx, &dw, &dy, &x, &w, &rstd}, {offset});
        const std::string what = name + " offset " + std::to_string(offset) + " on " + std::to_string(sms) + " SMs";
        expect_close_stored_in<E>(to_double(dx), dx_ref, "dx " + what);
        const std::vector<double> got = to_double(dw);
        for (int64_t k = 0; k < n; ++k)
          ASSERT_NEAR(got[static_cast<size_t>(k)], dw_ref[static_cast<size_t>(k)], rounding * (1 + scale))
              << "dweight " << what << " at " << k;
      }
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuRmsNorm,
                         ::testing::Values(Case{1, 128}, Case{37, 100}, Case{13, 17}, Case{8, 128}, Case{70, 33}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.n); });

// No rows: dx is empty and dweight is zero.
TEST(CpuRmsNormBackward, NoRowsGiveAZeroDweight) {
  const ct::Device cpu = ct::Device::cpu();
  auto x = ct::empty<float>({0, 24}, cpu), dy = ct::empty<float>({0, 24}, cpu), dx = ct::empty<float>({0, 24}, cpu);
  auto w = ct::randn<float>({24}, cpu, 3), rstd = ct::empty<float>({0}, cpu);
  auto dw = ct::randn<float>({24}, cpu, 4);
  ct::op::Target target = cpu_target(4);
  ct::op::run(lib::rms_norm_backward_op, target, {&dx, &dw, &dy, &x, &w, &rstd}, {0.0});
  for (float v : dw.to_host()) EXPECT_EQ(v, 0.0f);
}

// The reload kernel with a 32-column gather tile, so that a row takes several passes with a ragged last one.
TEST(CpuRmsNormKernels, ReloadInShortGathersMatchesFloat64) {
  const ct::Device cpu = ct::Device::cpu();
  const int64_t m = 9, n = 100;
  auto x = ct::randn<float>({m, n}, cpu, 5), w = ct::randn<float>({n}, cpu, 6);
  auto y = ct::empty<float>({m, n}, cpu);
  auto rstd = ct::empty<float>({m}, cpu);
  ct::launch(lib::rms_norm_row_reload<float, 128, 32>, y.partition({1, 128}), rstd.partition({1}), x, w, 1e-5f, 0.0f)
      .sync();
  const Reference ref = forward(to_double(x), to_double(w), m, n, 1e-5, 0.0);
  expect_close_stored_in<float>(to_double(y), ref.y, "y");
  expect_close_stored_in<float>(to_double(rstd), ref.rstd, "rstd");
}

}  // namespace
