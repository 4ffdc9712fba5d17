// C = A · B on the tensor cores, with f32 accumulation.
//   formula     C[m, n] = Σ_k A[m, k] · B[k, n], accumulated in f32, stored as C's element type
//   T           A and B elements: f16, bf16, f32 (tf32 on the tensor cores), f8e4m3fn or f8e5m2
//   C           the output element (f16, bf16 or f32)
//   BM, BN, BK  the tile: C in BM×BN tiles, K in steps of BK
//   runtime     a: (M, K), b: (K, N), c: (M, N); any sizes (ragged edges load as zeros and are not stored)
//
// matmul            one output tile per block; grid (⌈M/BM⌉, ⌈N/BN⌉, 1).
// persistent_matmul a persistent grid (by default one block per SM) walking the output tiles in the
//                   grouped (L2-friendly) order GROUP rows of tiles at a time, through the safe schedule
//                   API: each block stores only the tiles its schedule hands it.
// Provenance: TileGym src/tilegym/ops/cutile/matmul.py (1.5.1), `matmul_kernel` and
// `static_persistent_matmul_kernel`.
#pragma once

#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

namespace detail {

// acc + A[i-th BM rows, :] · B[:, j-th BN columns], over all K tiles.
template <Element T, int64_t BM, int64_t BN, int64_t BK>
Tile<float, Shape<BM, BN>> matmul_tile(const In<T, Shape<dyn, dyn>>& a, const In<T, Shape<dyn, dyn>>& b, const Int& i,
                                       const Int& j) {
  using Acc = Tile<float, Shape<BM, BN>>;
  return loop(0, cdiv(a.template extent<1>(), BK), zeros<float, BM, BN>(), [&](Int k, Acc acc) {
    auto a_tile = a.load(tile<BM, BK>, {i, k}, pad::zero);  // (BM, BK)
    auto b_tile = b.load(tile<BK, BN>, {k, j}, pad::zero);  // (BK, BN)
    if constexpr (std::is_same_v<T, float>)
      return mma(cast<tf32>(a_tile), cast<tf32>(b_tile), acc);
    else
      return mma(a_tile, b_tile, acc);
  });
}

}  // namespace detail

template <Element T, Element C, int64_t BM, int64_t BN, int64_t BK>
void matmul(Out<C, Shape<BM, BN>> c, In<T, Shape<dyn, dyn>> a, In<T, Shape<dyn, dyn>> b) {
  auto [i, j] = c.tile_index();
  c.store(cast<C>(detail::matmul_tile<T, BM, BN, BK>(a, b, i, j)));  // (BM, BN)
}

template <Element T, Element C, int64_t BM, int64_t BN, int64_t BK, int GROUP>
void persistent_matmul(OutTiles<C, Shape<BM, BN>> c, In<T, Shape<dyn, dyn>> a, In<T, Shape<dyn, dyn>> b) {
  for_each_tile(c, grouped<GROUP>, [&](TileIndex<C, Shape<BM, BN>> t) {
    const auto& [i, j] = t.coords();
    c.store(t, cast<C>(detail::matmul_tile<T, BM, BN, BK>(a, b, i, j)));  // (BM, BN)
  });
}

/// The op (matmul.cpp): C = A · B of one dtype, one tile per block or persistent.
extern const op::OpSpec matmul_op;

/// TileGym's first H200 candidates: 128×128×32 tiles, one CTA, occupancy 1; persistent: 128×512×64 tiles
/// in groups of 8 tile rows, clusters of 4 CTAs, a grid of min(SMs / 4, tiles).
void launch_matmul(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b,
                   bool static_persistent);

}  // namespace cutile::kernels
