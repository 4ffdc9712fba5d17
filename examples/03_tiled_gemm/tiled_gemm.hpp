// Rung 03: C = A · B, one output tile per block, with a loop over K and f32 accumulation.
//   formula     C[m, n] = Σ_k A[m, k] · B[k, n], accumulated in f32, stored as T
//   T           f16 or bf16 (the tensor cores' operand types; f32 operands would be cast<tf32> first)
//   BM, BN, BK  C in BM×BN tiles; K walked in steps of BK
//   runtime     a: (M, K), b: (K, N), c: (M, N), any sizes
//   grid        (cdiv(M, BM), cdiv(N, BN), 1)
// The accumulator is the loop's carried state: loop() passes it to the body and the body returns the
// next one, of the same type (a compile error otherwise). Tiles hanging over the edges load as zeros,
// which add nothing to the sums.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element T, int64_t BM, int64_t BN, int64_t BK>
void tiled_gemm(ct::Out<T, ct::Shape<BM, BN>> c, ct::In<T, ct::Shape<ct::dyn, ct::dyn>> a,
                ct::In<T, ct::Shape<ct::dyn, ct::dyn>> b) {
  using Acc = ct::Tile<float, ct::Shape<BM, BN>>;
  auto [i, j] = c.tile_index();
  const ct::Int k_tiles = ct::cdiv(ct::extent<1>(a), BK);  // a runtime value: K is not baked in
  Acc acc = ct::loop(0, k_tiles, ct::zeros<float, BM, BN>(), [&](ct::Int k, Acc sum) {
    auto a_tile = a.load(ct::tile<BM, BK>, {i, k}, ct::pad::zero);  // (BM, BK)
    auto b_tile = b.load(ct::tile<BK, BN>, {k, j}, ct::pad::zero);  // (BK, BN)
    return ct::mma(a_tile, b_tile, sum);                            // (BM, BN) += (BM, BK) · (BK, BN)
  });
  c.store(ct::cast<T>(acc));  // (BM, BN)
}

}  // namespace examples
