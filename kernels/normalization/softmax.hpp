// Softmax over the last axis of a 2-D tensor, one row per tile block.
//   formula  y[r, :] = exp(x[r, :] - m) / Σ exp(x[r, :] - m), m = max x[r, :]; computed in f32, stored as E
//   E        f32, f16 or bf16 (x and y share it)
//   TILE_N   a power of two ≥ the row length N: a whole row is one tile
//   runtime  x: (M, N), any strides; y: (M, N), any strides, written through its (1, TILE_N) partition
//   grid     (M, 1, 1)
// Columns past N load as -inf, so they add exp(-inf) = 0 to the sum and never win the max; the store of
// the tile's overhanging columns is clipped by the partition.
// Provenance: TileGym src/tilegym/ops/cutile/softmax.py (1.5.1), the one-row-per-block form of
// `_softmax_kernel_multi_wave_full_row_reg_cached_ldg` with tile-space loads instead of gathers, exact exp
// and division.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element E, int64_t TILE_N>
void softmax_row(Out<E, Shape<1, TILE_N>> y, In<E, Shape<dyn, dyn>> x) {
  auto [row, col] = y.tile_index();
  auto xf = cast<float>(x.load(tile<1, TILE_N>, {row, col}, pad::neg_inf));  // (1, TILE_N)
  auto e = exp(xf - max(xf, axis<1>, keepdims));                           // (1, TILE_N)
  y.store(cast<E>(e / sum(e, axis<1>, keepdims)));                          // (1, TILE_N)
}

}  // namespace cutile::kernels
