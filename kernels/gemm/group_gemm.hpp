// C_g = A_g · B_g for every g of lists of matrices, in one persistent launch.
//   formula     C_g[m, n] = Σ_k A_g[m, k] · B_g[k, n] (B_g[n, k] with TRANSPOSE_B), accumulated in f32,
//               stored as T
//   T           the element of every matrix: f16, bf16, f8e4m3fn or f8e5m2 (f32 through tf32)
//   BM, BN, BK  the tile: each C_g in BM×BN tiles, K in steps of BK
//   runtime     lists of equal length: as (M_g, K_g), bs (K_g, N_g) or (N_g, K_g), cs (M_g, N_g); any
//               sizes per member (ragged edges load as zeros and are not stored)
//   grid        1-D, persistent: by default one block per SM, at most one per tile of all members
// The tiles of all the C_g are numbered member after member and dealt to the blocks round-robin through
// the safe list schedule (for_each_tile over an OutTilesList): each block stores only the tiles dealt to
// it, and each member's A and B are read once per member, not per tile.
// Provenance: TileGym src/tilegym/ops/cutile/group_gemm.py (1.5.1), `_group_gemm_kernel`.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element T, int64_t BM, int64_t BN, int64_t BK, bool TRANSPOSE_B>
void group_gemm(OutTilesList<T, Shape<BM, BN>> cs, InList<T, Shape<dyn, dyn>> as, InList<T, Shape<dyn, dyn>> bs) {
  using Acc = Tile<float, Shape<BM, BN>>;
  for_each_tile(cs, linear, [&](const Int& g) {
    const auto a = as.member(g);
    const auto b = bs.member(g);
    const Int k_tiles = cdiv(a.template extent<1>(), BK);
    return [&cs, a, b, k_tiles](const ListTileIndex<T, Shape<BM, BN>>& t) {
      const auto& [i, j] = t.coords();
      const Acc acc = loop(0, k_tiles, zeros<float, BM, BN>(), [&](Int k, Acc sum) {
        auto a_tile = a.load(tile<BM, BK>, {i, k}, pad::zero);  // (BM, BK)
        auto b_tile = [&] {
          if constexpr (TRANSPOSE_B)
            return b.load(tile<BK, BN>, order<1, 0>, {k, j}, pad::zero);  // (BK, BN) of the (N, K) b
          else
            return b.load(tile<BK, BN>, {k, j}, pad::zero);  // (BK, BN)
        }();
        if constexpr (std::is_same_v<T, float>)
          return mma(cast<tf32>(a_tile), cast<tf32>(b_tile), sum);
        else
          return mma(a_tile, b_tile, sum);
      });
      cs.store(t, cast<T>(acc));  // (BM, BN)
    };
  });
}

}  // namespace cutile::kernels
