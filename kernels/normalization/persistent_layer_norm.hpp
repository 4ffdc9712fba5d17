// Layer normalisation over the last axis of a 2-D tensor, persistent: BN rows by BD ≥ D columns per tile.
//   formula  mean[r] = Σ_c x[r, c] / D;  rstd[r] = 1 / √(Σ_c x[r, c]² / D − mean[r]² + eps);
//            y[r, c] = (x[r, c] − mean[r]) · rstd[r] · w[c] + b[c], in f32, rounded to bf16 (TileGym's
//            kernel casts to bf16 whatever the dtype) and stored as E
//   E        f32, f16 or bf16 (x, w, b, y share it); mean and rstd are f32
//   runtime  x, y: (N, D); w, b: (D); mean, rstd: (N); eps; any strides
//   grid     persistent, 1-D (one block per SM, at most one per row tile)
// persistent_layer_norm              computes mean and rstd (one pass: E[x²] − E[x]²) and stores them:
//   y's, mean's and rstd's row tiles are walked in step (for_each_tile over the three, `linear`).
// persistent_layer_norm_given_stats  reads mean and rstd (gathered per row) instead.
// w and b are loaded once per block; columns past D load as zeros. The multiply-adds are fmas where
// cuTile Python fuses them.
// Provenance: TileGym src/tilegym/ops/cutile/layer_norm_legacy.py (1.5.1),
// `_persistent_layer_norm_fwd_kernel` (IS_SWISH 0, TRAINING 1, COMPUTE_MEAN_AND_RSTD 1 or 0).
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

namespace detail {

// (x − mean) · rstd · w + b through bf16, as E.
template <Element E, int64_t BN, int64_t BD>
Tile<E, Shape<BN, BD>> layer_norm_rows(const Tile<float, Shape<BN, BD>>& x,
                                       const Tile<float, Shape<BN, 1>>& mean,
                                       const Tile<float, Shape<BN, 1>>& rstd,
                                       const Tile<float, Shape<1, BD>>& w,
                                       const Tile<float, Shape<1, BD>>& b) {
  using S = Shape<BN, BD>;
  auto y = cast<bf16>(fma((x - mean) * rstd, broadcast_to<S>(w), broadcast_to<S>(b)));  // (BN, BD)
  if constexpr (std::is_same_v<E, bf16>)
    return y;
  else
    return cast<E>(y);
}

template <Element E, int64_t BD>
Tile<float, Shape<1, BD>> row_vector(const In<E, Shape<dyn>>& v) {
  return reshape<Shape<1, BD>>(cast<float>(v.load(tile<BD>, {0}, pad::zero)));  // (1, BD)
}

}  // namespace detail

template <Element E, int64_t BN, int64_t BD>
void persistent_layer_norm(OutTiles<E, Shape<BN, BD>> y, OutTiles<float, Shape<BN>> mean,
                           OutTiles<float, Shape<BN>> rstd, In<E, Shape<dyn, dyn>> x, In<E, Shape<dyn>> w,
                           In<E, Shape<dyn>> b, Float eps) {
  const Float d = cast<float>(x.template extent<1>());
  const auto wf = detail::row_vector<E, BD>(w), bf = detail::row_vector<E, BD>(b);
  for_each_tile(
      std::tie(y, mean, rstd), linear,
      [&](TileIndex<E, Shape<BN, BD>> ty, TileIndex<float, Shape<BN>> tm, TileIndex<float, Shape<BN>> tr) {
        const auto& [i, j] = ty.coords();
        auto xf = cast<float>(x.load(tile<BN, BD>, {i, j}, pad::zero, {.latency = 4}));  // (BN, BD)
        auto avg_square = sum(xf * xf, axis<1>, keepdims) / d;                           // (BN, 1)
        auto mu = sum(xf, axis<1>, keepdims) / d;                                        // (BN, 1)
        auto r = rsqrt(fma(-mu, mu, avg_square) + eps);                                  // (BN, 1)
        mean.store(tm, reshape<Shape<BN>>(mu), {.allow_tma = false});
        rstd.store(tr, reshape<Shape<BN>>(r), {.allow_tma = false});
        y.store(ty, detail::layer_norm_rows<E>(xf, mu, r, wf, bf), {.allow_tma = false});
      });
}

template <Element E, int64_t BN, int64_t BD>
void persistent_layer_norm_given_stats(OutTiles<E, Shape<BN, BD>> y, In<E, Shape<dyn, dyn>> x,
                                       In<E, Shape<dyn>> w, In<E, Shape<dyn>> b, In<float, Shape<dyn>> mean,
                                       In<float, Shape<dyn>> rstd) {
  const auto wf = detail::row_vector<E, BD>(w), bf = detail::row_vector<E, BD>(b);
  for_each_tile(y, linear, [&](TileIndex<E, Shape<BN, BD>> ty) {
    const auto& [i, j] = ty.coords();
    auto rows = iota<int32_t, BN>() + i * BN;                                        // (BN)
    auto xf = cast<float>(x.load(tile<BN, BD>, {i, j}, pad::zero, {.latency = 4}));  // (BN, BD)
    auto mu = reshape<Shape<BN, 1>>(mean.gather(rows));                              // (BN, 1)
    auto r = reshape<Shape<BN, 1>>(rstd.gather(rows));                               // (BN, 1)
    y.store(ty, detail::layer_norm_rows<E>(xf, mu, r, wf, bf), {.allow_tma = false});
  });
}

/// The ops (persistent_layer_norm.cpp): the statistics computed, or given.
extern const op::OpSpec persistent_layer_norm_op;
extern const op::OpSpec persistent_layer_norm_given_stats_op;

/// The column tile BD = next_pow2(D) (at least 16, at most 16384), the rows per tile and worker warps that
/// TileGym's autotuning picks on the H200, and TileGym's grid: min(SMs, row tiles). (The descriptions call
/// x's shape (M, N), as the benchmarks do.)
void launch_persistent_layer_norm(op::Target& target, const AnyTensor& y, const AnyTensor& mean, const AnyTensor& rstd,
                                  const AnyTensor& x, const AnyTensor& weight, const AnyTensor& bias, double eps);
void launch_persistent_layer_norm_given_stats(op::Target& target, const AnyTensor& y, const AnyTensor& x,
                                              const AnyTensor& weight, const AnyTensor& bias, const AnyTensor& mean,
                                              const AnyTensor& rstd);

}  // namespace cutile::kernels
