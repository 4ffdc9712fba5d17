// c = a + b, elementwise.
//   TILE   elements per tile block (power of two)
//   grid   (cdiv(n, TILE), 1, 1): one tile of c per block; the last tile may hang over the end
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t TILE>
void vector_add(ct::Out<E, ct::Shape<TILE>> c, ct::In<E, ct::Shape<ct::dyn>> a, ct::In<E, ct::Shape<ct::dyn>> b) {
  auto [i] = c.tile_index();
  c.store(a.load(ct::tile<TILE>, {i}) + b.load(ct::tile<TILE>, {i}));  // (TILE)
}

}  // namespace examples
