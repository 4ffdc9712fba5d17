// Rung 02: y[r, :] = softmax(x[r, :]) = exp(x - max) / sum(exp(x - max)), computed in f32.
//   E       element type of x and y (f32, f16 or bf16)
//   TILE_N  ≥ the number of columns, a power of two: a row is one tile
//   grid    (rows, 1, 1): one row per tile block
// A reduction over axis 1 with keepdims gives a (1, 1) tile that broadcasts against the (1, TILE_N) row.
// Columns past the end of a row load as -inf: they add exp(-inf) = 0 to the sum and never win the max,
// so the padding needs no mask.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t TILE_N>
void row_softmax(ct::Out<E, ct::Shape<1, TILE_N>> y, ct::In<E, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto [row, col] = y.tile_index();
  auto xf = ct::cast<float>(x.load(ct::tile<1, TILE_N>, {row, col}, ct::pad::neg_inf));  // (1, TILE_N)
  auto e = ct::exp(xf - ct::max(xf, ct::axis<1>, ct::keepdims));                         // (1, TILE_N)
  y.store(ct::cast<E>(e / ct::sum(e, ct::axis<1>, ct::keepdims)));                       // (1, TILE_N)
}

}  // namespace examples
