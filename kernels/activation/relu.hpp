// ReLU over a flattened tensor.
//   formula  y[i] = max(x[i], 0), taken in f32 as the reference does (exact in every E)
//   E        f32, f16 or bf16 (x and y share it)
//   TILE     elements per tile block, a power of two (the C ABI uses 1024)
//   runtime  x: (n), any stride; y: (n), any stride, written through its (TILE) partition
//   grid     (cdiv(n, TILE), 1, 1); the last tile's overhang loads as 0 and its store is clipped
// maximum ignores NaN (maxf), as ct.maximum does, so relu(NaN) is 0 here and in the reference.
// Provenance: TileGym src/tilegym/ops/cutile/activation/relu.py (1.5.1), `_relu_fwd_kernel`, with a
// tile-space load and store of the block's range instead of a gather / scatter of the same offsets.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element E, int64_t TILE>
void relu(Out<E, Shape<TILE>> y, In<E, Shape<dyn>> x) {
  auto [i] = y.tile_index();
  auto xf = cast<float>(x.load(tile<TILE>, {i}, pad::zero));  // (TILE)
  y.store(cast<E>(maximum(xf, zeros<float, TILE>())));        // (TILE)
}

}  // namespace cutile::kernels
