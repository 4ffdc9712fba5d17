// Rung 01: c = a + b, elementwise.
//   E      element type (any float or integer type)
//   TILE   elements per tile block (a power of two, as every tile dimension)
//   grid   (cdiv(n, TILE), 1, 1): one tile of c per block, inferred from c's partition at launch
// The kernel body runs once per specialisation, on symbolic tiles, and records Tile IR. The last tile may
// hang over the end of the tensors: its load reads padding there and its store writes nothing there.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t TILE>
void vector_add(ct::Out<E, ct::Shape<TILE>> c,    // this block's tile of c, which no other block writes
                ct::In<E, ct::Shape<ct::dyn>> a,  // read-only, shared by all blocks; extent at run time
                ct::In<E, ct::Shape<ct::dyn>> b) {
  auto [i] = c.tile_index();                                           // which tile of c is this block's
  c.store(a.load(ct::tile<TILE>, {i}) + b.load(ct::tile<TILE>, {i}));  // (TILE)
}

}  // namespace examples
