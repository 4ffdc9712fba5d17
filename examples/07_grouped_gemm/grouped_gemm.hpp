// Rung 07: C_g = A_g · B_g for every g of lists of matrices of different sizes, in one persistent launch.
//   formula     C_g[m, n] = Σ_k A_g[m, k] · B_g[k, n], accumulated in f32, stored as T
//   T           f16 or bf16; BM, BN, BK: the tiles, as in rung 03
//   runtime     lists of equal length: as (M_g, K_g), bs (K_g, N_g), cs (M_g, N_g)
//   grid        1-D, persistent: by default one block per SM (at most one per tile of all members)
// The tiles of all the C_g are numbered member after member and dealt round-robin, so the blocks share
// the work of large and small members alike. for_each_tile over a list calls `prepare(g)` once per member
// the block has tiles of (read the member's inputs there, once) and runs the body it returns per tile.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element T, int64_t BM, int64_t BN, int64_t BK>
void grouped_gemm(ct::OutTilesList<T, ct::Shape<BM, BN>> cs, ct::InList<T, ct::Shape<ct::dyn, ct::dyn>> as,
                  ct::InList<T, ct::Shape<ct::dyn, ct::dyn>> bs) {
  using Acc = ct::Tile<float, ct::Shape<BM, BN>>;
  ct::for_each_tile(cs, ct::linear, [&](const ct::Int& g) {
    const auto a = as.member(g), b = bs.member(g);  // In<T, Shape<dyn, dyn>>: member g's matrices
    const ct::Int k_tiles = ct::cdiv(ct::extent<1>(a), BK);
    return [&cs, a, b, k_tiles](const ct::ListTileIndex<T, ct::Shape<BM, BN>>& t) {
      const auto& [i, j] = t.coords();  // the tile's place in C_g's tile grid
      const Acc acc = ct::loop(0, k_tiles, ct::zeros<float, BM, BN>(), [&](ct::Int k, Acc sum) {
        auto a_tile = a.load(ct::tile<BM, BK>, {i, k}, ct::pad::zero);  // (BM, BK)
        auto b_tile = b.load(ct::tile<BK, BN>, {k, j}, ct::pad::zero);  // (BK, BN)
        return ct::mma(a_tile, b_tile, sum);                            // (BM, BN)
      });
      cs.store(t, ct::cast<T>(acc));  // (BM, BN) of C_g
    };
  });
}

}  // namespace examples
