// y[r, :] = softmax(x[r, :]) = exp(x - max) / sum(exp(x - max)), computed in f32.
//   TILE_N  ≥ the number of columns (power of two): a row is one tile
//   grid    (rows, 1, 1): one row per tile block
// Columns past the end load as -inf, so they add exp(-inf) = 0 to the sum and never win the max.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t TILE_N>
void row_softmax(ct::Out<E, ct::Shape<1, TILE_N>> y, ct::In<E, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto [row, col] = y.tile_index();
  auto xf = ct::cast<float>(x.load(ct::tile<1, TILE_N>, {row, col}, ct::pad::neg_inf));  // (1, TILE_N)
  auto e = ct::exp(xf - ct::max(xf, ct::axis<1>, ct::keepdims));                        // (1, TILE_N)
  y.store(ct::cast<E>(e / ct::sum(e, ct::axis<1>, ct::keepdims)));                       // (1, TILE_N)
}

}  // namespace examples
