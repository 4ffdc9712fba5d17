// The persistent_layer_norm ops on the CPU interpreter, through their launchers (op::run on the CPU target),
// against float64 references computed from the same (rounded) inputs, y rounded through bf16 as the kernel
// stores it: every dtype, ragged row counts and row lengths (row tiles of 32 and of 8 rows), persistent grids
// sized by 1, 3 and 64 SMs; given the statistics it computed, the given-statistics op writes the same y.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/op/run.hpp"
#include "normalization/persistent_layer_norm.hpp"
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

class CpuPersistentLayerNorm : public ::testing::TestWithParam<Case> {};

TEST_P(CpuPersistentLayerNorm, MatchesFloat64OnEveryGrid) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<ct::Element E>() {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 61), w = ct::randn<E>({n}, cpu, 62), b = ct::randn<E>({n}, cpu, 63);
    const auto ref = reference::layer_norm(to_double(x), to_double(w), to_double(b), m, n, 1e-6);
    for (int sms : {1, 3, 64}) {
      ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu), sms);
      auto y = ct::empty<E>({m, n}, cpu);
      auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
      ct::op::run(lib::persistent_layer_norm_op, target, {&y, &mean, &rstd, &x, &w, &b}, {1e-6});
      const std::string where = name + " on " + std::to_string(sms) + " SMs";
      expect_close_stored_in<ct::bf16>(to_double(y), ref.y, "y " + where);
      expect_close_stored_in<float>(to_double(mean), ref.mean, "mean " + where);
      // E[x²] − E[x]² in f32: the variance loses what cancels, so rstd is checked at f32's reach of it.
      const std::vector<double> r = to_double(rstd);
      for (size_t i = 0; i < r.size(); ++i) ASSERT_NEAR(r[i], ref.rstd[i], 1e-4 * ref.rstd[i]) << where << " row " << i;

      auto given = ct::empty<E>({m, n}, cpu);
      ct::op::run(lib::persistent_layer_norm_given_stats_op, target, {&given, &x, &w, &b, &mean, &rstd});
      EXPECT_EQ(to_double(given), to_double(y)) << "given the statistics it computed, " << where;
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

// Up to 256 columns a row tile holds 32 rows, above 8: 70 rows are 3 tiles of 32, 37 rows of 300 columns 5 of 8.
INSTANTIATE_TEST_SUITE_P(Shapes, CpuPersistentLayerNorm,
                         ::testing::Values(Case{1, 128}, Case{13, 9}, Case{6, 16}, Case{70, 33}, Case{21, 77},
                                           Case{37, 300}, Case{9, 1100}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.n); });

}  // namespace
