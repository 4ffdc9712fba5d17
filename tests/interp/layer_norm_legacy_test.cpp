// The layer_norm_legacy op on the CPU interpreter, through its launcher (op::run on the CPU target), against
// float64 references computed from the same (rounded) inputs: every dtype and weight shift, ragged row
// counts, and row lengths that take each of its instances (rows shorter than 16, one tile with N baked in,
// two tiles with the second ragged); and a row of exactly one tile with N dynamic, which the launcher does
// not pick.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "support/float64_reference.hpp"
#include "support/host_tensor.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::expect_close_stored_in;
using cutile::test_support::to_double;
namespace reference = cutile::test_support::reference;

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
      const auto ref = reference::layer_norm(to_double(x), to_double(w), to_double(b), m, n, 1e-5, shift);
      auto y = ct::empty<E>({m, n}, cpu);
      auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
      ct::op::run(lib::layer_norm_legacy_op, target, {&y, &mean, &rstd, &x, &w, &b}, {1e-5, shift});
      const std::string what = name + " weight_shift " + std::to_string(shift);
      expect_close_stored_in<E>(to_double(y), ref.y, "y " + what);
      expect_close_stored_in<float>(to_double(mean), ref.mean, "mean " + what);
      expect_close_stored_in<float>(to_double(rstd), ref.rstd, "rstd " + what);
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
  const auto ref = reference::layer_norm(to_double(x), to_double(w), to_double(b), m, n, 1e-5, 0.5);
  expect_close_stored_in<float>(to_double(y), ref.y, "y");
  expect_close_stored_in<float>(to_double(mean), ref.mean, "mean");
  expect_close_stored_in<float>(to_double(rstd), ref.rstd, "rstd");
}

}  // namespace
