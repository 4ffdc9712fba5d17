// The layer-norm kernels on the CPU interpreter,
// against float64 references computed from the same (rounded) inputs: every dtype, ragged row counts and
// row lengths, several persistent grids.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cutile/host/launch.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "normalization/persistent_layer_norm.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::to_double;

// |out − ref| ≤ abs + rel·|ref| everywhere, with the bounds of E's rounding of an f32 result.
template <ct::Element E>
void expect_close(const std::vector<double>& out, const std::vector<double>& ref, const std::string& what) {
  const double rel = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  const double abs = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  ASSERT_EQ(out.size(), ref.size()) << what;
  for (size_t i = 0; i < ref.size(); ++i)
    ASSERT_LE(std::abs(out[i] - ref[i]), abs + rel * std::abs(ref[i]))
        << what << " at " << i << ": " << out[i] << " vs " << ref[i];
}

struct RmsCase {
  int64_t m, n;
};

struct LayerNormReference {
  std::vector<double> y, mean, rstd;
};

// `through_bf16`: y rounded to bf16 first, as the persistent kernel stores it.
LayerNormReference layer_norm_ref(const std::vector<double>& x, const std::vector<double>& w,
                                  const std::vector<double>& b, int64_t m, int64_t n, double eps,
                                  double shift) {
  LayerNormReference r{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(m)),
                       std::vector<double>(static_cast<size_t>(m))};
  for (int64_t i = 0; i < m; ++i) {
    double s = 0, ss = 0;
    for (int64_t c = 0; c < n; ++c) s += x[static_cast<size_t>(i * n + c)];
    const double mu = s / static_cast<double>(n);
    for (int64_t c = 0; c < n; ++c)
      ss += (x[static_cast<size_t>(i * n + c)] - mu) * (x[static_cast<size_t>(i * n + c)] - mu);
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

class CpuLayerNorm : public ::testing::TestWithParam<RmsCase> {};

// The legacy kernel with one column tile or two (the second ragged), as TileGym's constant trip counts.
TEST_P(CpuLayerNorm, LegacyMatchesFloat64) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<ct::Element E>(std::type_identity<E>) {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 51), w = ct::randn<E>({n}, cpu, 52), b = ct::randn<E>({n}, cpu, 53);
    for (double shift : {0.0, 1.0}) {
      const LayerNormReference ref =
          layer_norm_ref(to_double(x), to_double(w), to_double(b), m, n, 1e-5, shift);
      // One tile, or two with the second ragged, of 16 or 64 columns; a row of exactly one tile also with
      // N baked in, as the C ABI launches it.
      auto run = [&]<int64_t BLOCK, int64_t TILES>(std::integral_constant<int64_t, BLOCK>,
                                                   std::integral_constant<int64_t, TILES>) {
        ASSERT_TRUE(n <= TILES * BLOCK && n > (TILES - 1) * BLOCK) << n;
        auto launch_checked = [&](auto kernel, const std::string& instance) {
          auto y = ct::empty<E>({m, n}, cpu);
          auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
          ct::launch(kernel, y.partition({1, TILES * BLOCK}), mean.partition({1}), rstd.partition({1}), x, w, b,
                     1e-5f, static_cast<float>(shift))
              .sync();
          expect_close<E>(to_double(y), ref.y, "layer_norm_legacy y " + name + instance);
          expect_close<float>(to_double(mean), ref.mean, "layer_norm_legacy mean " + name + instance);
          expect_close<float>(to_double(rstd), ref.rstd, "layer_norm_legacy rstd " + name + instance);
        };
        launch_checked(lib::layer_norm_legacy<E, BLOCK, TILES>, "");
        if constexpr (TILES == 1)
          if (n == BLOCK) launch_checked(lib::layer_norm_legacy<E, BLOCK, 1, BLOCK>, ", N baked in");
      };
      if (n <= 16)
        run(std::integral_constant<int64_t, 16>{}, std::integral_constant<int64_t, 1>{});
      else if (n <= 32)
        run(std::integral_constant<int64_t, 16>{}, std::integral_constant<int64_t, 2>{});
      else if (n <= 64)
        run(std::integral_constant<int64_t, 64>{}, std::integral_constant<int64_t, 1>{});
      else
        run(std::integral_constant<int64_t, 64>{}, std::integral_constant<int64_t, 2>{});
    }
  };
  check(std::type_identity<float>{});
  check(std::type_identity<ct::f16>{});
  check(std::type_identity<ct::bf16>{});
}

// The persistent kernel, computing the statistics and given them, on several grids; y goes through bf16.
TEST_P(CpuLayerNorm, PersistentMatchesFloat64) {
  const auto [m, n] = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  auto check = [&]<ct::Element E>(std::type_identity<E>) {
    const std::string name(ct::element_traits<E>::name);
    auto x = ct::randn<E>({m, n}, cpu, 61), w = ct::randn<E>({n}, cpu, 62), b = ct::randn<E>({n}, cpu, 63);
    const LayerNormReference ref = layer_norm_ref(to_double(x), to_double(w), to_double(b), m, n, 1e-6, 0.0);
    for (int64_t grid : {1, 3, 64}) {
      ct::LaunchOptions options;
      options.grid = std::array<int64_t, 3>{grid, 1, 1};
      auto y = ct::empty<E>({m, n}, cpu);
      auto mean = ct::empty<float>({m}, cpu), rstd = ct::empty<float>({m}, cpu);
      ct::launch(options, lib::persistent_layer_norm<E, 8, 128>, y.partition({8, 128}), mean.partition({8}),
                 rstd.partition({8}), x, w, b, 1e-6f)
          .sync();
      const std::string where = name + ", grid " + std::to_string(grid);
      expect_close<ct::bf16>(to_double(y), ref.y, "persistent_layer_norm y " + where);
      // E[x²] − E[x]² in f32: the variance loses what cancels, so rstd is checked at f32's reach of it.
      expect_close<float>(to_double(mean), ref.mean, "persistent_layer_norm mean " + where);
      const std::vector<double> r = to_double(rstd);
      for (size_t i = 0; i < r.size(); ++i)
        ASSERT_NEAR(r[i], ref.rstd[i], 1e-4 * ref.rstd[i]) << where << " row " << i;

      auto y2 = ct::empty<E>({m, n}, cpu);
      ct::launch(options, lib::persistent_layer_norm_given_stats<E, 8, 128>, y2.partition({8, 128}), x, w, b,
                 mean, rstd)
          .sync();
      EXPECT_EQ(to_double(y2), to_double(y)) << "given the statistics it computed, " << where;
    }
  };
  check(std::type_identity<float>{});
  check(std::type_identity<ct::f16>{});
  check(std::type_identity<ct::bf16>{});
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuLayerNorm,
                         ::testing::Values(RmsCase{1, 128}, RmsCase{37, 100}, RmsCase{13, 9}, RmsCase{21, 77},
                                           RmsCase{5, 64}, RmsCase{3, 30}, RmsCase{4, 45}, RmsCase{6, 16}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.m) + "x" +
                                  std::to_string(param_info.param.n);
                         });

}  // namespace
