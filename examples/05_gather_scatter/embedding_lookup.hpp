// Rung 05: an embedding lookup, y[t, :] = table[ids[t], :], and a count of how often each id occurs.
//   TM       tokens per block; D: the embedding width (a power of two, static in the table's type)
//   runtime  table: (V, D); ids: (T), each in [0, V); y: (T, D); counts: (V) int32, zero before the launch
//   grid     (cdiv(T, TM), 1, 1)
// A tile load reads a rectangle; a gather reads the elements named by index tiles, one per tensor
// dimension, broadcast against each other: at(rows (TM, 1), cols (1, D)) names a (TM, D) tile. A scatter
// writes that way, and an Atomic parameter, which every block may update, takes atomic read-modify-writes
// at such indices. Indices outside the tensor read the padding and are not written.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t TM, int64_t D>
void embedding_lookup(ct::Out<E, ct::Shape<TM, D>> y, ct::Atomic<int32_t, ct::Shape<ct::dyn>> counts,
                      ct::In<E, ct::Shape<ct::dyn, D>> table, ct::In<int32_t, ct::Shape<ct::dyn>> ids) {
  auto [t, unused] = y.tile_index();
  auto id = ids.load(ct::tile<TM>, {t}, ct::pad::zero);              // (TM)
  auto rows = ct::reshape<ct::Shape<TM, 1>>(id);                     // (TM, 1)
  auto cols = ct::reshape<ct::Shape<1, D>>(ct::iota<int32_t, D>());  // (1, D)
  y.store(table.gather(ct::at(rows, cols)));                         // (TM, D)
  // The last block's tile hangs over the end of ids: its padded ids must not be counted.
  auto tokens = ct::iota<int32_t, TM>() + t * TM;  // (TM)
  counts.atomic_add(ct::at(id), ct::full<int32_t, TM>(1), tokens < ct::extent<0>(ids));
}

}  // namespace examples
