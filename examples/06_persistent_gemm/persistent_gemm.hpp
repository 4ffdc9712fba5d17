// Rung 06: C = A · B with a persistent grid: each block walks the output tiles a schedule deals it.
//   formula     C[m, n] = Σ_k A[m, k] · B[k, n], accumulated in f32, stored as T
//   T           f16 or bf16; BM, BN, BK: the tiles, as in rung 03
//   GROUP       the swizzle: tiles are dealt GROUP tile rows at a time, down a group's column first, so
//               blocks running together share rows of A and columns of B in L2
//   grid        1-D and free: by default one block per SM (at most one per tile); block b of G takes the
//               tiles numbered b, b + G, b + 2G, ... of the swizzled order
// An OutTiles output is reached only through for_each_tile: its TileIndex, the only key OutTiles::store
// takes, is minted by the schedule, so every tile still has exactly one writer.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element T, int64_t BM, int64_t BN, int64_t BK, int GROUP>
void persistent_gemm(ct::OutTiles<T, ct::Shape<BM, BN>> c, ct::In<T, ct::Shape<ct::dyn, ct::dyn>> a,
                     ct::In<T, ct::Shape<ct::dyn, ct::dyn>> b) {
  using Acc = ct::Tile<float, ct::Shape<BM, BN>>;
  const ct::Int k_tiles = ct::cdiv(ct::extent<1>(a), BK);
  ct::for_each_tile(c, ct::grouped<GROUP>, [&](ct::TileIndex<T, ct::Shape<BM, BN>> t) {
    const auto& [i, j] = t.coords();  // this tile's place in C's tile grid
    const Acc acc = ct::loop(0, k_tiles, ct::zeros<float, BM, BN>(), [&](ct::Int k, Acc sum) {
      auto a_tile = a.load(ct::tile<BM, BK>, {i, k}, ct::pad::zero);  // (BM, BK)
      auto b_tile = b.load(ct::tile<BK, BN>, {k, j}, ct::pad::zero);  // (BK, BN)
      return ct::mma(a_tile, b_tile, sum);                            // (BM, BN)
    });
    c.store(t, ct::cast<T>(acc));  // (BM, BN)
  });
}

}  // namespace examples
