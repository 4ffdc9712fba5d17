// Float64 references for the library kernels' tests: GEMM, attention and the layer norm.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace cutile::test_support::reference {

/// C = A · B for row-major A (m, k) and B (k, n).
inline std::vector<double> matmul(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t n,
                                  int64_t k) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const double av = a[static_cast<size_t>(i * k + p)];
      for (int64_t j = 0; j < n; ++j) c[static_cast<size_t>(i * n + j)] += av * b[static_cast<size_t>(p * n + j)];
    }
  return c;
}

struct Attention {
  int64_t bh, s, s_kv, d;  ///< q, o: (bh, s, d); k, v: (bh / group, s_kv, d)
  int64_t heads, group;     ///< query heads per batch, query heads per K/V head
  bool causal;
  int64_t input_pos;        ///< query row i sits at key position i + input_pos
  double scale;
};

/// softmax(scale · q kᵀ [causal mask]) v per query head, with grouped-query K/V heads.
inline std::vector<double> attention(const std::vector<double>& q, const std::vector<double>& k,
                                     const std::vector<double>& v, const Attention& a) {
  std::vector<double> o(static_cast<size_t>(a.bh * a.s * a.d), 0.0), p(static_cast<size_t>(a.s_kv));
  for (int64_t x = 0; x < a.bh; ++x) {
    const int64_t kv = x / a.heads * (a.heads / a.group) + x % a.heads / a.group;
    for (int64_t i = 0; i < a.s; ++i) {
      double m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < a.s_kv; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < a.d; ++e)
          dot += q[static_cast<size_t>((x * a.s + i) * a.d + e)] * k[static_cast<size_t>((kv * a.s_kv + j) * a.d + e)];
        p[static_cast<size_t>(j)] = a.causal && j > i + a.input_pos ? -INFINITY : dot * a.scale;
        m = std::max(m, p[static_cast<size_t>(j)]);
      }
      for (double& w : p) sum += (w = std::exp(w - m));
      for (int64_t j = 0; j < a.s_kv; ++j)
        for (int64_t e = 0; e < a.d; ++e)
          o[static_cast<size_t>((x * a.s + i) * a.d + e)] +=
              p[static_cast<size_t>(j)] / sum * v[static_cast<size_t>((kv * a.s_kv + j) * a.d + e)];
    }
  }
  return o;
}

/// The layer norm of x (M, N) per row: the mean, the two-pass variance (as the kernels compute it),
/// rstd = 1 / sqrt(var + eps) and y = (x - mean) * rstd * (w + shift) + b.
struct LayerNorm {
  std::vector<double> y, mean, rstd;
};

inline LayerNorm layer_norm(const std::vector<double>& x, const std::vector<double>& w,
                            const std::vector<double>& b, int64_t m, int64_t n, double eps, double shift = 0) {
  LayerNorm r{std::vector<double>(x.size()), std::vector<double>(static_cast<size_t>(m)),
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

}  // namespace cutile::test_support::reference
