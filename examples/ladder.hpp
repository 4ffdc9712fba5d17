// What the rungs of the ladder share, so that each rung's own file is its kernel and its launch: the
// device a rung runs on, float64 copies of tensors, and the check of a result against a float64
// reference computed on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cutile/compile/cubin_cache.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace examples {

/// GPU 0 when there is one, else the CPU interpreter, which runs the same traced kernel without a driver,
/// a GPU or tileiras; CUTILE_BACKEND=interpret picks the interpreter in any case. Says which it picked.
inline cutile::Device pick_device() {
  std::string why = "CUTILE_BACKEND=interpret";
  if (cutile::default_backend() == cutile::Backend::cuda) {
    std::string no_driver;
    if (!cutile::runtime::driver_available(&no_driver)) {
      why = no_driver;
    } else if (cutile::runtime::device_count() == 0) {
      why = "the CUDA driver sees no GPU";
    } else {
      cutile::Device gpu(0);
      std::printf("device: %s (%s)\n", gpu.name().c_str(), gpu.arch().c_str());
      return gpu;
    }
  }
  std::printf("device: the CPU interpreter (%s)\n", why.c_str());
  return cutile::Device::cpu();
}

/// The elements of `t` in row-major order, as doubles (the values the kernel saw, already rounded to E).
template <cutile::Element E>
std::vector<double> to_double(const cutile::Tensor<E>& t) {
  std::vector<double> out;
  for (const E& v : t.to_host()) out.push_back(cutile::from_element(v));
  return out;
}

/// C = A · B in float64 for row-major A (m, k) and B (k, n): the reference of the GEMM rungs.
inline std::vector<double> matmul(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                                  int64_t n, int64_t k) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const double av = a[static_cast<size_t>(i * k + p)];
      for (int64_t j = 0; j < n; ++j)
        c[static_cast<size_t>(i * n + j)] += av * b[static_cast<size_t>(p * n + j)];
    }
  return c;
}

/// softmax of each row of a row-major (rows, cols) matrix in float64: the reference of the softmax rungs.
inline std::vector<double> softmax_rows(const std::vector<double>& x, int64_t rows, int64_t cols) {
  std::vector<double> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = &x[static_cast<size_t>(r * cols)];
    double m = -INFINITY, s = 0;
    for (int64_t c = 0; c < cols; ++c) m = std::max(m, in[c]);
    for (int64_t c = 0; c < cols; ++c) s += std::exp(in[c] - m);
    for (int64_t c = 0; c < cols; ++c) y[static_cast<size_t>(r * cols + c)] = std::exp(in[c] - m) / s;
  }
  return y;
}

/// Prints the relative error ‖out − ref‖ / ‖ref‖ of `what` against its float64 reference with the
/// tolerance it must meet, and returns whether it does (a NaN or infinity in `out` never does).
inline bool check(const std::string& what, const std::vector<double>& out, const std::vector<double>& ref,
                  double tolerance) {
  double num = 0, den = 0;
  bool finite = out.size() == ref.size();
  for (size_t i = 0; finite && i < ref.size(); ++i) {
    finite = std::isfinite(out[i]);
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  const double error = finite ? std::sqrt(num / std::max(den, 1e-300)) : INFINITY;
  const bool ok = error <= tolerance;
  std::printf("%-40s relative error %8.2e  tolerance %.0e  %s\n", what.c_str(), error, tolerance,
              ok ? "ok" : "FAIL");
  return ok;
}

/// Says where the cubins of this run went, and returns the exit status for `ok`. A launch on a GPU traces
/// the kernel, compiles it with tileiras and keeps the cubin in the cache (a later run reads it from
/// there); the interpreter runs the traced Tile IR itself and compiles nothing.
inline int finish(const cutile::Device& device, bool ok) {
  if (device.is_cpu()) {
    std::printf("cubins: none (the interpreter ran the traced Tile IR)\n");
  } else {
    const cutile::compile::CubinCache& cache = cutile::compile::CubinCache::global();
    const cutile::compile::CacheStats stats = cache.stats();
    const std::string where = cache.config().disk_enabled ? "in " + cache.config().dir.string()
                                                          : "in memory only (CUTILE_CACHE=off)";
    std::printf("cubins: %s (%llu compiled by tileiras, %llu read from the disk cache)\n", where.c_str(),
                static_cast<unsigned long long>(stats.compiles),
                static_cast<unsigned long long>(stats.disk_hits));
  }
  return ok ? 0 : 1;
}

}  // namespace examples
