// Elementwise sum of two vectors.
//   formula  c[i] = a[i] + b[i], in E
//   E        any element type with addition (the C ABI instantiates f32, f16 and bf16)
//   TILE     elements per tile block, a power of two
//   runtime  a, b: (n), any strides; c: (n), any strides, written through its (TILE) partition
//   grid     (cdiv(n, TILE), 1, 1); the last tile may hang over the end, and its store is clipped
// Provenance: the vector add of examples/kernels (TileGym has no vector add op).
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t TILE>
void vector_add(Out<E, Shape<TILE>> c, In<E, Shape<dyn>> a, In<E, Shape<dyn>> b) {
  auto [i] = c.tile_index();
  c.store(a.load(tile<TILE>, {i}) + b.load(tile<TILE>, {i}));  // (TILE)
}

/// The op (vector_add.cpp).
extern const op::OpSpec vector_add_op;

/// Tiles of 1024 elements.
void launch_vector_add(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b);

}  // namespace cutile::kernels
