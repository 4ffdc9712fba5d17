// RMS normalisation over the last axis of a 2-D tensor, forward (three schedules) and backward.
//   formula   rstd[r] = 1 / √(Σ_c x[r, c]² / N + eps);  y[r, c] = x[r, c] · rstd[r] · (offset + w[c]), in f32,
//             stored as E (offset 0 for Llama, 1 for Gemma3)
//   backward  x̂ = x · rstd, g = dy · (offset + w):  dx = (g − x̂ · Σ_c(x̂ · g) / N) · rstd,  dw = Σ_r dy · x̂
//   E         f32, f16 or bf16 (x, w, y, dy, dx, dw share it); rstd and the dw partials are f32
//   runtime   x, y: (M, N); w: (N); rstd: (M); eps, offset; any strides
//
// rms_norm_static_persistent  TM rows by TN ≥ N columns per tile; a persistent 1-D grid (one block per SM,
//   at most one per tile) walks y's row tiles and rstd's tiles in step (for_each_tile over both, `linear`);
//   w is loaded once per block. Out-of-range columns load as zeros, adding nothing to Σ x².
// rms_norm_row_reload         one row per block (grid (M, 1, 1)), the row in TILE-column gathers, read
//   twice: once for Σ x², once to normalise. y's block tile is the whole row ((1, ROW), ROW ≥ N a power of
//   two) and is written by confined scatters.
// rms_norm_row_cached         one row per block, the whole row gathered once (TILE ≥ N) and kept.
// rms_norm_backward           persistent (grid = dw_partial's rows): each block walks dx's row tiles with a
//   carried (1, TN) Σ dy · x̂ and stores it as its row of dw_partial. SHIFTED adds the offset to w (TileGym's
//   backward has none: offset 0 compiles without it).
// rms_norm_backward_dweight   dw = Σ_b dw_partial[b, :N], cast to E; one block per TN columns, the partial
//   rows in G_TILE-row tiles (what TileGym does with torch: dw_partial.sum(0).to(w.dtype)).
// Provenance: TileGym src/tilegym/ops/cutile/rms_norm.py (1.5.1): `_rms_norm_kernel_static_persistent`,
// `_rms_norm_kernel_gather`, `_rms_norm_kernel_multi_wave_cached`, `_rms_bwd_kernel`.
#pragma once

#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t TM, int64_t TN>
void rms_norm_static_persistent(OutTiles<E, Shape<TM, TN>> y, OutTiles<float, Shape<TM>> rstd,
                                In<E, Shape<dyn, dyn>> x, In<E, Shape<dyn>> w, Float eps, Float offset) {
  const Float n = cast<float>(x.template extent<1>());
  auto scale = offset + reshape<Shape<1, TN>>(cast<float>(w.load(tile<TN>, {0}, pad::zero)));  // (1, TN)
  for_each_tile(
      std::tie(y, rstd), linear, [&](TileIndex<E, Shape<TM, TN>> ty, TileIndex<float, Shape<TM>> tr) {
        const auto& [i, j] = ty.coords();
        auto xf = cast<float>(x.load(tile<TM, TN>, {i, j}, pad::zero, {.latency = 10}));  // (TM, TN)
        auto r = rsqrt(sum(xf * xf, axis<1>, keepdims) / n + eps);                        // (TM, 1)
        rstd.store(tr, reshape<Shape<TM>>(r), {.allow_tma = false});
        y.store(ty, cast<E>(xf * r * scale), {.latency = 3, .allow_tma = false});  // (TM, TN)
      });
}

template <Element E, int64_t ROW, int64_t TILE>
void rms_norm_row_reload(Out<E, Shape<1, ROW>> y, Out<float, Shape<1>> rstd, In<E, Shape<dyn, dyn>> x,
                         In<E, Shape<dyn>> w, Float eps, Float offset) {
  using Row = Tile<float, Shape<TILE>>;
  auto [row, unused] = y.tile_index();
  const Int n = x.template extent<1>();
  const Int tiles = cdiv(n, TILE);
  const auto lanes = iota<int32_t, TILE>();  // (TILE)
  auto squares = loop(0, tiles, zeros<float, TILE>(), [&](Int j, Row acc) {
    auto xj = cast<float>(x.gather(at(row, lanes + j * TILE), {.latency = 1}));  // (TILE)
    return fma(xj, xj, acc);  // cuTile Python fuses `_rms += xj * xj`
  });
  auto r = rsqrt(sum(squares, axis<0>) / cast<float>(n) + eps);
  rstd.scatter(at(scalar<int32_t>(0)), r);  // a scalar scatter, as TileGym's
  loop(0, tiles, std::tuple<>{}, [&](Int j, std::tuple<> none) {
    auto cols = lanes + j * TILE;                                              // (TILE)
    auto wj = cast<float>(w.gather(cols, {.latency = 1}));                     // (TILE)
    auto xj = cast<float>(x.gather(at(row, cols), {.latency = 1}));            // (TILE)
    y.scatter(at(scalar<int32_t>(0), cols), cast<E>(xj * r * (offset + wj)));  // (TILE)
    return none;
  });
}

template <Element E, int64_t TILE>
void rms_norm_row_cached(Out<E, Shape<1, TILE>> y, Out<float, Shape<1>> rstd, In<E, Shape<dyn, dyn>> x,
                         In<E, Shape<dyn>> w, Float eps, Float offset) {
  auto [row, unused] = y.tile_index();
  const auto cols = iota<int32_t, TILE>();                         // (TILE)
  auto xj = cast<float>(x.gather(at(row, cols), {.latency = 1}));  // (TILE)
  // `_rms = zeros; _rms += xj * xj`, which cuTile Python fuses into an fma with zero (the same rounding).
  auto r = rsqrt(sum(fma(xj, xj, zeros<float, TILE>()), axis<0>) / cast<float>(x.template extent<1>()) + eps);
  rstd.scatter(at(scalar<int32_t>(0)), r);  // a scalar scatter, as TileGym's
  auto wj = cast<float>(w.gather(cols, {.latency = 1}));                     // (TILE)
  y.scatter(at(scalar<int32_t>(0), cols), cast<E>(xj * r * (offset + wj)));  // (TILE)
}

template <Element E, int64_t TM, int64_t TN, bool SHIFTED>
void rms_norm_backward(OutTiles<E, Shape<TM, TN>> dx, Out<float, Shape<1, TN>> dw_partial,
                       In<E, Shape<dyn, dyn>> dy, In<E, Shape<dyn, dyn>> x, In<E, Shape<dyn>> w,
                       In<float, Shape<dyn>> rstd, Float offset) {
  using Partial = Tile<float, Shape<1, TN>>;
  auto wf = reshape<Shape<1, TN>>(cast<float>(w.load(tile<TN>, {0}, pad::zero)));  // (1, TN)
  if constexpr (SHIFTED) wf = wf + offset;
  const Float inv_n = 1.0f / cast<float>(x.template extent<1>());
  auto dw = for_each_tile(
      std::tie(dx), linear, zeros<float, 1, TN>(), [&](TileIndex<E, Shape<TM, TN>> t, Partial acc) {
        const auto& [i, j] = t.coords();
        auto xt = cast<float>(x.load(tile<TM, TN>, {i, j}, pad::zero, {.latency = 10}));    // (TM, TN)
        auto dyt = cast<float>(dy.load(tile<TM, TN>, {i, j}, pad::zero, {.latency = 10}));  // (TM, TN)
        auto r = reshape<Shape<TM, 1>>(rstd.load(tile<TM>, {i}, pad::zero));                // (TM, 1)
        auto xhat = xt * r;                                                                 // (TM, TN)
        auto g = dyt * wf;                                                                  // (TM, TN)
        auto c = sum(xhat * g, axis<1>, keepdims) * inv_n;                                  // (TM, 1)
        dx.store(t, cast<E>((g - xhat * c) * r), {.latency = 3, .allow_tma = false});
        return acc + sum(dyt * xhat, axis<0>, keepdims);  // (1, TN)
      });
  dw_partial.store(dw, {.allow_tma = false});
}

template <Element E, int64_t G_TILE, int64_t TN>
void rms_norm_backward_dweight(Out<E, Shape<TN>> dw, In<float, Shape<dyn, dyn>> dw_partial) {
  using Column = Tile<float, Shape<TN>>;
  auto [j] = dw.tile_index();
  const Int rows = dw_partial.template extent<0>();
  auto total = loop(0, cdiv(rows, G_TILE), zeros<float, TN>(), [&](Int g, Column acc) {
    return acc + sum(dw_partial.load(tile<G_TILE, TN>, {g, j}, pad::zero), axis<0>);  // (TN)
  });
  dw.store(cast<E>(total));
}

/// The schedule of rms_norm's forward (its `mode`).
enum class RmsNormMode { auto_, static_persistent, multi_wave_reload, multi_wave_cached };

/// The ops (rms_norm.cpp).
extern const op::OpSpec rms_norm_op;
extern const op::OpSpec rms_norm_backward_op;

/// TileGym's schedules and tiles: auto is static persistent when the rows take more than two waves (M >
/// 2 · SMs), else multi-wave reload.
void launch_rms_norm(op::Target& target, const AnyTensor& y, const AnyTensor& rstd, const AnyTensor& x,
                     const AnyTensor& weight, double eps, double offset, RmsNormMode mode);
/// TileGym's persistent backward grid (min(SMs, row tiles), at most 32 for 64 row tiles or fewer) over an
/// f32 scratch of dw partials, then their sum into dweight.
void launch_rms_norm_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dweight,
                              const AnyTensor& dy, const AnyTensor& x, const AnyTensor& weight,
                              const AnyTensor& rstd, double offset);

}  // namespace cutile::kernels
