// The group GEMM (kernels/gemm/group_gemm.hpp) run on one device and checked member by member against
// float64 references computed on the host; shared by the interp and gpu tiers.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cutile/host/launch.hpp"
#include "gemm/group_gemm.hpp"
#include "support/float64_reference.hpp"
#include "support/tensor_values.hpp"

namespace cutile::test_support {

struct GemmGroup {
  int64_t m, n, k;
};

/// Random A_g and B_g (B_g as (N, K) with TRANSPOSE_B), C_g poisoned with NaN so that a tile no block
/// wrote fails; every element of C_g within atol + rtol·|ref|.
template <Element T, int64_t BM, int64_t BN, int64_t BK, bool TRANSPOSE_B>
void check_group_gemm(const Device& device, const std::vector<GemmGroup>& groups, const LaunchOptions& options,
                      double rtol, double atol) {
  std::vector<Tensor<T>> a, b, c;
  uint64_t seed = 100;
  for (const GemmGroup& g : groups) {
    a.push_back(randn<T>({g.m, g.k}, device, seed++));
    b.push_back(TRANSPOSE_B ? randn<T>({g.n, g.k}, device, seed++) : randn<T>({g.k, g.n}, device, seed++));
    const std::vector<T> poison(static_cast<size_t>(g.m * g.n), to_element<T>(std::numeric_limits<double>::quiet_NaN()));
    c.push_back(from_host<T>(poison, {g.m, g.n}, device));
  }
  TensorList<T> as(a), bs(b), cs(c);
  launch(options, kernels::group_gemm<T, BM, BN, BK, TRANSPOSE_B>, cs.partition({BM, BN}), as, bs).sync();
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto [m, n, k] = groups[g];
    std::vector<double> kn = to_double(b[g]);
    if (TRANSPOSE_B) {  // (N, K) to (K, N)
      const std::vector<double> nk = kn;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t p = 0; p < k; ++p) kn[static_cast<size_t>(p * n + i)] = nk[static_cast<size_t>(i * k + p)];
    }
    const std::vector<double> ref = test_support::reference::matmul(to_double(a[g]), kn, m, n, k);
    const std::vector<double> got = to_double(c[g]);
    for (size_t e = 0; e < ref.size(); ++e)
      ASSERT_NEAR(got[e], ref[e], atol + rtol * std::abs(ref[e])) << "member " << g << ", element " << e;
  }
}

}  // namespace cutile::test_support
