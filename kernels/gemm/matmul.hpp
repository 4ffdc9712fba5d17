// C = op(A) · op(B) on the tensor cores, with f32 accumulation; op(X) is X or its transpose.
//   formula     C[m, n] = Σ_k A[m, k] · B[k, n], accumulated in f32, stored as C's element type
//   T           A and B elements: f16, bf16, f32 (tf32 on the tensor cores), f8e4m3fn or f8e5m2
//   C           the output element
//   BM, BN, BK  the tile: C in BM×BN tiles, K in steps of BK
//   GROUP       tile rows per group of the grouped (L2-friendly) tile order
//   TA, TB      A is stored (K, M), B is stored (N, K): their tiles are loaded from that layout and transposed
//   ORDERED     persistent: each tile's store waits for the block's previous one (schedule.hpp, ordered_stores)
//   runtime     a: (M, K) or (K, M), b: (K, N) or (N, K), c: (M, N); any sizes (ragged edges load as zeros
//               and are not stored)
//
// matmul            one output tile per block on a 1-D grid of one block per tile, in the grouped order
//                   (TileGym's GROUP_SIZE_M swizzle).
// persistent_matmul a persistent grid walking the output tiles in the grouped order, each block storing
//                   only the tiles its schedule hands it.
// Provenance: TileGym src/tilegym/ops/cutile/matmul.py (1.5.1), `_matmul_kernel` and
// `_static_persistent_matmul_kernel`.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"
#include "gemm/gemm_tiles.hpp"

namespace cutile::kernels {

namespace detail {

// X's (R, C) tile at tile coordinates (r, c): from X as stored, or from its (C, R) storage, transposed.
template <bool TRANSPOSED, int64_t R, int64_t C, Element T>
Tile<T, Shape<R, C>> operand_tile(const In<T, Shape<dyn, dyn>>& x, const Int& r, const Int& c) {
  if constexpr (TRANSPOSED)
    return transpose(x.load(tile<C, R>, {c, r}, pad::zero));  // (C, R) → (R, C)
  else
    return x.load(tile<R, C>, {r, c}, pad::zero);  // (R, C)
}

// op(A)[i-th BM rows, :] · op(B)[:, j-th BN columns], over the `k_tiles` K tiles.
template <Element T, int64_t BM, int64_t BN, int64_t BK, bool TA, bool TB>
Tile<float, Shape<BM, BN>> matmul_tile(const In<T, Shape<dyn, dyn>>& a, const In<T, Shape<dyn, dyn>>& b, const Int& i,
                                       const Int& j, const Int& k_tiles) {
  using Acc = Tile<float, Shape<BM, BN>>;
  return loop(0, k_tiles, zeros<float, BM, BN>(), [&](Int k, Acc acc) {
    auto a_tile = operand_tile<TA, BM, BK>(a, i, k);  // (BM, BK)
    auto b_tile = operand_tile<TB, BK, BN>(b, k, j);  // (BK, BN)
    if constexpr (std::is_same_v<T, float>)
      return mma(cast<tf32>(a_tile), cast<tf32>(b_tile), acc);
    else
      return mma(a_tile, b_tile, acc);
  });
}

}  // namespace detail

template <Element T, Element C, int64_t BM, int64_t BN, int64_t BK, int GROUP = 8, bool TA = false, bool TB = false>
void matmul(OutTiles<C, Shape<BM, BN>> c, In<T, Shape<dyn, dyn>> a, In<T, Shape<dyn, dyn>> b) {
  for_block_tile(c, grouped<GROUP>, [&](TileIndex<C, Shape<BM, BN>> t) {
    const auto& [i, j] = t.coords();
    const Int k_tiles = cdiv(extent<TA ? 0 : 1>(a), BK);
    c.store(t, cast<C>(detail::matmul_tile<T, BM, BN, BK, TA, TB>(a, b, i, j, k_tiles)));  // (BM, BN)
  });
}

template <Element T, Element C, int64_t BM, int64_t BN, int64_t BK, int GROUP = 8, bool TA = false, bool TB = false,
          bool ORDERED = false>
void persistent_matmul(OutTiles<C, Shape<BM, BN>> c, In<T, Shape<dyn, dyn>> a, In<T, Shape<dyn, dyn>> b) {
  const Int k_tiles = cdiv(extent<TA ? 0 : 1>(a), BK);  // once, before the tile loop, as TileGym's
  auto body = [&](TileIndex<C, Shape<BM, BN>> t) {
    const auto& [i, j] = t.coords();
    c.store(t, cast<C>(detail::matmul_tile<T, BM, BN, BK, TA, TB>(a, b, i, j, k_tiles)));  // (BM, BN)
  };
  if constexpr (ORDERED)
    for_each_tile(c, ordered_stores(grouped<GROUP>), body);
  else
    for_each_tile(c, grouped<GROUP>, body);
}

/// TileGym's H200 autotuning candidates, in its order (matmul.py, 1.5.1): `config` of the op indexes these.
/// The persistent list leaves out its one candidate with a load-latency hint (256×256×64, 2 CTAs,
/// latency 4), which measured the same as the one without it, and ends with TileGym's pick with ordered
/// stores, as cuTile Python compiles it.
inline constexpr std::array<GemmTiles, 4> kMatmulTiles = {{
    {128, 128, 32, 1, 1},
    {256, 256, 64, 2, 1},
    {256, 256, 64, 4, 1},
    {512, 256, 64, 2, 1},
}};
inline constexpr std::array<GemmTiles, 8> kPersistentMatmulTiles = {{
    {128, 512, 64, 4, 1},
    {256, 256, 64, 2, 1},
    {256, 256, 64, 1, 1},
    {256, 256, 128, 2, 1},
    {128, 128, 64, 1, 1},
    {256, 512, 64, 2, 1},
    {256, 128, 32, 2, 1},
    {128, 128, 64, 1, 1, true},
}};

/// The op (matmul.cpp): TileGym's matmul, with transposes, both kernels and its H200 tiles.
extern const op::OpSpec matmul_op;

/// c = op(a) · op(b). `config` -1 picks the tiles by shape; else it indexes kMatmulTiles or, with
/// `static_persistent`, kPersistentMatmulTiles.
void launch_matmul(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b, bool trans_a,
                   bool trans_b, bool static_persistent, int64_t config);

}  // namespace cutile::kernels
