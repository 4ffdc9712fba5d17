// Row softmax variants, to see what the device time of examples::row_softmax depends on.
//   reciprocal   one division per row: e * (1 / sum) instead of e / sum
//   approx_exp   also the approximate exp (f32)
//   rows<R>      R rows per tile block: tile (R, TILE_N), grid (rows / R, 1, 1)
#pragma once

#include "cutile/cutile.hpp"

namespace bench {

namespace ct = cutile;

template <ct::Element E, int64_t ROWS, int64_t TILE_N, ct::FloatMode EXP>
void row_softmax_reciprocal(ct::Out<E, ct::Shape<ROWS, TILE_N>> y, ct::In<E, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto [row, col] = y.tile_index();
  auto xf = ct::cast<float>(x.load(ct::tile<ROWS, TILE_N>, {row, col}, ct::pad::neg_inf));  // (ROWS, TILE_N)
  auto e = ct::exp(xf - ct::max(xf, ct::axis<1>, ct::keepdims), EXP);                      // (ROWS, TILE_N)
  auto inverse = 1.0f / ct::sum(e, ct::axis<1>, ct::keepdims);                              // (ROWS, 1)
  y.store(ct::cast<E>(e * inverse));
}

}  // namespace bench
