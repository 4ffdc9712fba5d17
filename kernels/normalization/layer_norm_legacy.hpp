// Layer normalisation over the last axis of a 2-D tensor, one row per block, the row in column tiles.
//   formula  mean[r] = Σ_c x[r, c] / N;  rstd[r] = 1 / √(Σ_c (x[r, c] − mean[r])² / N + eps);
//            y[r, c] = (x[r, c] − mean[r]) · rstd[r] · (w[c] + weight_shift) + b[c], in f32, stored as E
//   E        f32, f16 or bf16 (x, w, b, y share it); mean and rstd are f32
//   BLOCK    the column tile: TileGym's largest power of two ≤ N (capped at 64 KiB of E)
//   TILES    column tiles per row, ⌈N / BLOCK⌉: 1 or 2
//   COLS     N when the launch bakes it (the launcher does when N is BLOCK, as TileGym bakes N: the column
//            masks of the gathers then fold away; at N 16384 the kernel takes 154 registers per thread
//            instead of 255), else dyn
//   runtime  x, y: (M, N) with (TILES − 1)·BLOCK < N ≤ TILES·BLOCK; w, b: (N); mean, rstd: (M); eps,
//            weight_shift; any strides
//   grid     (M, 1, 1): y's block tile is the whole row, (1, TILES·BLOCK), written by confined scatters
// Three passes over the row, as TileGym's: Σ x, then Σ (x − mean)² (the two-pass variance, masked past N),
// then the normalised row; the multiply-adds are fmas where cuTile Python fuses them. weight_shift is added
// in f32 (TileGym adds it in E before widening). The passes' trip count is the constant TILES, as TileGym's
// is with N baked in: tileiras then unrolls them and loads each x tile once for all three passes (with a
// runtime trip count it reloads x in every pass: 0.7× TileGym's speed on the H200). Up to 8192 columns mean
// and rstd are stored last, since a store between the passes keeps tileiras from merging their loads of x;
// above, the row held in registers would cost occupancy (255 registers at 16384 columns: two blocks per SM
// against TileGym's three), so they are stored before the third pass, as TileGym does, and x is re-read.
// Provenance: TileGym src/tilegym/ops/cutile/layer_norm_legacy.py (1.5.1), `_layer_norm_fwd_kernel`.
#pragma once

#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t BLOCK, int64_t TILES, int64_t COLS = dyn>
void layer_norm_legacy(Out<E, Shape<1, TILES * BLOCK>> y, Out<float, Shape<1>> mean, Out<float, Shape<1>> rstd,
                       In<E, Shape<dyn, COLS>> x, In<E, Shape<COLS>> w, In<E, Shape<COLS>> b, Float eps,
                       Float weight_shift) {
  static_assert(TILES == 1 || TILES == 2, "a row is one column tile or two");
  using Acc = Tile<float, Shape<BLOCK>>;
  auto [row, unused] = y.tile_index();
  const Int n = x.template extent<1>();
  const Float n_f = cast<float>(n);
  const auto lanes = iota<int32_t, BLOCK>();  // (BLOCK)
  auto load_x = [&](const Tile<int32_t, Shape<BLOCK>>& cols) { return cast<float>(x.gather(at(row, cols))); };
  // for off in range(0, TILES·BLOCK, BLOCK): the column offset of each tile
  auto over_tiles = [&]<LoopState State>(State init, auto body) {
    return loop(0, TILES * BLOCK, BLOCK, init, body);
  };

  auto sums = over_tiles(zeros<float, BLOCK>(), [&](Int off, Acc acc) { return acc + load_x(lanes + off); });
  const Float mu = sum(sums, axis<0>) / n_f;
  auto squares = over_tiles(zeros<float, BLOCK>(), [&](Int off, Acc acc) {
    auto cols = lanes + off;                                                   // (BLOCK)
    auto centred = where(cols < n, load_x(cols) - mu, zeros<float, BLOCK>());  // (BLOCK)
    return fma(centred, centred, acc);
  });
  const Float r = rsqrt(sum(squares, axis<0>) / n_f + eps);
  // One-element scatters, as TileGym's (a view store of a (1) tile is the same single store).
  auto store_stats = [&] {
    const auto first = iota<int32_t, 1>();  // (1)
    mean.scatter(at(first), reshape<Shape<1>>(mu));
    rstd.scatter(at(first), reshape<Shape<1>>(r));
  };
  constexpr bool REREAD_X = TILES * BLOCK > 8192;
  if constexpr (REREAD_X) store_stats();

  over_tiles(std::tuple<>{}, [&](Int off, std::tuple<> none) {
    auto cols = lanes + off;                               // (BLOCK)
    auto wj = cast<float>(w.gather(cols)) + weight_shift;  // (BLOCK)
    auto bj = cast<float>(b.gather(cols));                 // (BLOCK)
    auto yj = fma((load_x(cols) - mu) * r, wj, bj);        // (BLOCK)
    y.scatter(at(scalar<int32_t>(0), cols), cast<E>(yj));
    return none;
  });
  if constexpr (!REREAD_X) store_stats();
}

/// The op (layer_norm_legacy.cpp).
extern const op::OpSpec layer_norm_legacy_op;

/// One row per block, in TileGym's column tile BLOCK, the largest power of two <= N (at least 16): one tile with
/// N baked in when N is BLOCK, two (the second ragged) when N is larger, one when the row is shorter than 16.
void launch_layer_norm_legacy(op::Target& target, const AnyTensor& y, const AnyTensor& mean, const AnyTensor& rstd,
                              const AnyTensor& x, const AnyTensor& weight, const AnyTensor& bias, double eps,
                              double weight_shift);

}  // namespace cutile::kernels
