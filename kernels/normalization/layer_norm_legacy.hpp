// Layer normalisation over the last axis of a 2-D tensor, one row per block, the row in column tiles.
//   formula  mean[r] = Σ_c x[r, c] / N;  rstd[r] = 1 / √(Σ_c (x[r, c] − mean[r])² / N + eps);
//            y[r, c] = (x[r, c] − mean[r]) · rstd[r] · (w[c] + weight_shift) + b[c], in f32, stored as E
//   E        f32, f16 or bf16 (x, w, b, y share it); mean and rstd are f32
//   BLOCK    the column tile: TileGym's largest power of two ≤ N (capped at 64 KiB of E)
//   runtime  x, y: (M, N) with N < 2·BLOCK; w, b: (N); mean, rstd: (M); eps, weight_shift; any strides
//   grid     (M, 1, 1): y's block tile is the whole row, (1, 2·BLOCK), written by confined scatters
// Three passes over the row, as TileGym's: Σ x, then Σ (x − mean)² (the two-pass variance, masked past N),
// then the normalised row; the multiply-adds are fmas where cuTile Python fuses them. weight_shift is added
// in f32 (TileGym adds it in E before widening).
// Provenance: TileGym src/tilegym/ops/cutile/layer_norm_legacy.py (1.5.1), `_layer_norm_fwd_kernel`.
#pragma once

#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element E, int64_t BLOCK>
void layer_norm_legacy(Out<E, Shape<1, 2 * BLOCK>> y, Out<float, Shape<1>> mean, Out<float, Shape<1>> rstd,
                       In<E, Shape<dyn, dyn>> x, In<E, Shape<dyn>> w, In<E, Shape<dyn>> b, Float eps,
                       Float weight_shift) {
  using Acc = Tile<float, Shape<BLOCK>>;
  auto [row, unused] = y.tile_index();
  const Int n = x.template extent<1>();
  const Float n_f = cast<float>(n);
  const Int tiles = cdiv(n, BLOCK);
  const auto lanes = iota<int32_t, BLOCK>();  // (BLOCK)
  auto load_x = [&](const Tile<int32_t, Shape<BLOCK>>& cols) { return cast<float>(x.gather(at(row, cols))); };

  auto sums =
      loop(0, tiles, zeros<float, BLOCK>(), [&](Int j, Acc acc) { return acc + load_x(lanes + j * BLOCK); });
  const Float mu = sum(sums, axis<0>) / n_f;
  auto squares = loop(0, tiles, zeros<float, BLOCK>(), [&](Int j, Acc acc) {
    auto cols = lanes + j * BLOCK;                                             // (BLOCK)
    auto centred = where(cols < n, load_x(cols) - mu, zeros<float, BLOCK>());  // (BLOCK)
    return fma(centred, centred, acc);
  });
  const Float r = rsqrt(sum(squares, axis<0>) / n_f + eps);
  mean.store(reshape<Shape<1>>(mu));
  rstd.store(reshape<Shape<1>>(r));

  loop(0, tiles, std::tuple<>{}, [&](Int j, std::tuple<> none) {
    auto cols = lanes + j * BLOCK;                         // (BLOCK)
    auto wj = cast<float>(w.gather(cols)) + weight_shift;  // (BLOCK)
    auto bj = cast<float>(b.gather(cols));                 // (BLOCK)
    auto yj = fma((load_x(cols) - mu) * r, wj, bj);        // (BLOCK)
    y.scatter(at(scalar<int32_t>(0), cols), cast<E>(yj));
    return none;
  });
}

}  // namespace cutile::kernels
