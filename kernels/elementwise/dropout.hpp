// Dropout with TileGym's counter-based hash: element i of the flattened tensor is kept when
//   h = xorshift(i · 1103515245 + seed)  (int32, wrapping; h ^= h >> 16, h ^= h << 8, h ^= h >> 4,
//                                          arithmetic shifts)
//   f32(h & 0x7fffffff) / 2^31 > p
// and becomes x[i] · scale (computed in E), else 0.
//   E        f32, f16 or bf16 (x and y share it)
//   TILE     elements per tile block (TileGym: 1024)
//   runtime  x: (n,), any stride; y: (n,), any stride, its (TILE) partition; seed: the mixed seed (the
//            launcher applies TileGym's `_mix_seed`); p: f32; scale: 1 / (1 - p) rounded to E, 0 for p = 1
//   grid     (⌈n / TILE⌉, 1, 1)
// The seed, p and scale are runtime scalars where TileGym compiles them in: one instance serves every
// seed (a new seed per training step would otherwise compile a new kernel), and the mask is unchanged
// because the host rounds p to f32 and scale to E exactly as TileGym's constants are rounded.
// Provenance: TileGym src/tilegym/ops/cutile/dropout.py (1.5.1), `_dropout_kernel` (training branch;
// in eval mode TileGym returns x without a launch, and so does cutile_cpp.tilegym's dropout).
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

/// The keep mask of the elements at flat offsets `offsets`.
template <int64_t TILE>
Tile<bool, Shape<TILE>> dropout_keep(const Tile<int32_t, Shape<TILE>>& offsets, const Int& seed,
                                     const Tile<float, Shape<>>& p) {
  auto h = offsets * 1103515245 + seed;  // (TILE)
  h = h ^ (h >> full<int32_t>(16));
  h = h ^ (h << 8);
  h = h ^ (h >> full<int32_t>(4));
  return cast<float>(h & 0x7fffffff) / 2147483647.0 > p;  // (TILE); the divisor rounds to 2^31 in f32
}

template <Element E, int64_t TILE>
void dropout(Out<E, Shape<TILE>> y, In<E, Shape<dyn>> x, Int seed, Tile<float, Shape<>> p,
             Tile<E, Shape<>> scale) {
  auto [block] = y.tile_index();
  const auto lanes = iota<int32_t, TILE>();   // (TILE)
  const auto offsets = lanes + block * TILE;  // (TILE)
  auto v = x.gather(offsets);                 // (TILE), 0 past the end
  y.scatter(at(lanes), where(dropout_keep(offsets, seed, p), v * scale, zeros<E, TILE>()));
}

/// In place: x is the output, read and written through its own tile.
template <Element E, int64_t TILE>
void dropout_inplace(Out<E, Shape<TILE>> x, Int seed, Tile<float, Shape<>> p, Tile<E, Shape<>> scale) {
  auto [block] = x.tile_index();
  const auto offsets = iota<int32_t, TILE>() + block * TILE;  // (TILE)
  auto v = x.load(pad::zero);                                 // (TILE)
  x.store(where(dropout_keep(offsets, seed, p), v * scale, zeros<E, TILE>()));
}

/// The ops (dropout.cpp): TileGym's dropout in training mode, out of place and in place.
extern const op::OpSpec dropout_op;
extern const op::OpSpec dropout_inplace_op;

/// Tiles of 1024 elements (TileGym's TILE_SIZE); the seed mixed as TileGym's `_mix_seed` mixes it.
void launch_dropout(op::Target& target, const AnyTensor& y, const AnyTensor& x, int64_t seed, double p);
void launch_dropout_inplace(op::Target& target, const AnyTensor& x, int64_t seed, double p);

}  // namespace cutile::kernels
