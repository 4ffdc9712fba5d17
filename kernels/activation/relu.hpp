// ReLU over a flattened tensor.
//   formula  y[i] = max(x[i], 0), taken in f32 as the reference does (exact in every E)
//   E        f32, f16 or bf16 (x and y share it)
//   TILE     elements per tile block, a power of two (the launcher: 1024, TileGym's BLOCK_SIZE)
//   runtime  x: (n), any stride, gathered; y: (n), any stride, scattered within the block's (TILE) tile
//   grid     (cdiv(n, TILE), 1, 1); the last tile's overhang gathers 0 and its scatter is masked
// maximum ignores NaN (maxf), as ct.maximum does, so relu(NaN) is 0 here and in the reference.
// Provenance: TileGym src/tilegym/ops/cutile/activation/relu.py (1.5.1), `_relu_fwd_kernel`: a gather
// and a scatter of the block's TILE offsets, TileGym's pointer path (sm_90: 80 instructions to its 72;
// a tile-space load and store of the same range took 104).
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t TILE>
void relu(Out<E, Shape<TILE>> y, In<E, Shape<dyn>> x) {
  auto [i] = y.tile_index();
  auto offsets = iota<int32_t, TILE>();                 // (TILE)
  auto xf = cast<float>(x.gather(i * TILE + offsets));  // (TILE)
  y.scatter(at(offsets), cast<E>(maximum(xf, zeros<float, TILE>())));
}

/// The op (relu.cpp).
extern const op::OpSpec relu_op;

/// Tiles of 1024 elements, as TileGym's.
void launch_relu(op::Target& target, const AnyTensor& y, const AnyTensor& x);

}  // namespace cutile::kernels
