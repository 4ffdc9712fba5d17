// Batched C[q] = op(A[q]) · op(B[q]) on the tensor cores, with f32 accumulation; op(X) is X or its
// transpose.
//   formula     C[q, m, n] = Σ_k A[q, m, k] · B[q, k, n], accumulated in f32, stored as C's element type
//   T           A and B elements: f16, bf16 or f32 (f32 operands go to mma as they are, as TileGym's: not
//               tf32; tileiras 13.4 compiles that mma for sm_90 to FMUL/FADD on the CUDA cores)
//   C           the output element
//   TM, TN, TK  the tile: C[q] in TM×TN tiles, K in steps of TK
//   TA, TB      A is stored (Q, K, M), B is stored (Q, N, K): their tiles are loaded in that layout,
//               (1, TK, TM) and (1, TN, TK), and permuted (0, 2, 1), as TileGym's
//   runtime     a: (Q, M, K) or (Q, K, M), b: (Q, K, N) or (Q, N, K), c: (Q, M, N); any sizes (ragged
//               edges load as zeros and are not stored); every tile is 3-D with a unit batch dimension,
//               reshaped to 2-D around the mma, as in TileGym
// Provenance: TileGym src/tilegym/ops/cutile/bmm.py (1.5.1), `_bmm_kernel` and
// `_static_persistent_bmm_kernel`.
#pragma once

#include <array>
#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"
#include "gemm/gemm_tiles.hpp"

namespace cutile::kernels {

namespace detail {

// op(X[q])'s (R, C) tile (r, c), for op(A) (TM, TK) at (m, k) and op(B) (TK, TN) at (k, n): loaded
// (1, R, C), or from the transposed storage as (1, C, R) and permuted; LATENCY 0 sets no hint.
template <bool TRANSPOSED, int64_t R, int64_t C, int LATENCY, Element T>
Tile<T, Shape<R, C>> bmm_operand_tile(const In<T, Shape<dyn, dyn, dyn>>& x, const Int& q, const Int& r,
                                      const Int& c) {
  const AccessHints hints = LATENCY > 0 ? AccessHints{.latency = LATENCY} : AccessHints{};
  if constexpr (TRANSPOSED)
    return reshape<Shape<R, C>>(permute<0, 2, 1>(x.load(tile<1, C, R>, {q, c, r}, pad::zero, hints)));
  else
    return reshape<Shape<R, C>>(x.load(tile<1, R, C>, {q, r, c}, pad::zero, hints));  // (R, C)
}

// op(A[q])[m-th TM rows, :] · op(B[q])[:, n-th TN columns], over the `k_tiles` K tiles, in f32.
template <Element T, int64_t TM, int64_t TN, int64_t TK, bool TA, bool TB, int LATENCY>
Tile<float, Shape<TM, TN>> bmm_tile(const In<T, Shape<dyn, dyn, dyn>>& a, const In<T, Shape<dyn, dyn, dyn>>& b,
                                    const Int& q, const Int& m, const Int& n, const Int& k_tiles) {
  using Acc = Tile<float, Shape<TM, TN>>;
  return loop(0, k_tiles, zeros<float, TM, TN>(), [&](Int k, Acc acc) {
    auto a_tile = bmm_operand_tile<TA, TM, TK, LATENCY>(a, q, m, k);  // (TM, TK), loaded first, as TileGym's
    auto b_tile = bmm_operand_tile<TB, TK, TN, LATENCY>(b, q, k, n);  // (TK, TN)
    return mma(a_tile, b_tile, acc);                                   // (TM, TN)
  });
}

}  // namespace detail

/// bmm: one output tile per block on TileGym's 3-D grid (⌈M/TM⌉, ⌈N/TN⌉, Q): block (x, y, z) computes
/// C[z]'s tile (x, y). c is written through Out<C, Shape<TM, TN, 1>, Order<1, 2, 0>>: tile dims (M, N, Q)
/// walk tensor dims (1, 2, 0), so the output partition's grid is TileGym's grid, axis for axis (the launch
/// passes c.partition({TM, TN, 1}, {1, 2, 0})); the (TM, TN) result is stored as (TM, TN, 1) where TileGym
/// stores (1, TM, TN), the same elements. The K-tile count is ⌈K/TK⌉ of A as stored. No hints (TileGym's
/// decorator defaults). TileGym refuses transposes on this path; the kernel takes them as the persistent
/// one does.
template <Element T, Element C, int64_t TM, int64_t TN, int64_t TK, bool TA = false, bool TB = false>
void bmm(Out<C, Shape<TM, TN, 1>, Order<1, 2, 0>> c, In<T, Shape<dyn, dyn, dyn>> a,
         In<T, Shape<dyn, dyn, dyn>> b) {
  const auto& [m, n, q] = c.tile_index();
  const Int k_tiles = cdiv(extent<TA ? 1 : 2>(a), TK);
  const auto acc = detail::bmm_tile<T, TM, TN, TK, TA, TB, 0>(a, b, q, m, n, k_tiles);  // (TM, TN)
  c.store(reshape<Shape<TM, TN, 1>>(cast<C>(acc)));                                   // (TM, TN, 1)
}

/// static_persistent_bmm: a persistent 1-D grid walking C's (1, TM, TN) tiles batch after batch, each
/// batch's tiles in TileGym's GROUP_SIZE_M grouped order (schedule.hpp, grouped<GROUP> of rank 3); block b
/// of G takes tiles b, b + G, ... Loads and stores carry TileGym's `latency` hint (LATENCY); with ORDERED
/// each tile's store waits for the block's previous one, as cuTile Python compiles TileGym's kernel
/// (ordered_stores), else the stores are loop-parallel. TileGym bakes M, N, K into its kernel
/// (ct.Constant); here they are the arrays' runtime extents.
template <Element T, Element C, int64_t TM, int64_t TN, int64_t TK, int GROUP = 8, int LATENCY = 3, bool TA = false,
          bool TB = false, bool ORDERED = true>
void static_persistent_bmm(OutTiles<C, Shape<1, TM, TN>> c, In<T, Shape<dyn, dyn, dyn>> a,
                           In<T, Shape<dyn, dyn, dyn>> b) {
  const Int k_tiles = cdiv(extent<TA ? 1 : 2>(a), TK);  // once, before the tile loop
  auto body = [&](TileIndex<C, Shape<1, TM, TN>> t) {
    const auto& [q, m, n] = t.coords();
    const auto acc = detail::bmm_tile<T, TM, TN, TK, TA, TB, LATENCY>(a, b, q, m, n, k_tiles);  // (TM, TN)
    c.store(t, reshape<Shape<1, TM, TN>>(cast<C>(acc)), {.latency = LATENCY});              // (1, TM, TN)
  };
  if constexpr (ORDERED)
    for_each_tile(c, ordered_stores(grouped<GROUP>), body);
  else
    for_each_tile(c, grouped<GROUP>, body);
}

/// The plain kernel's tiles: TileGym's launcher default (its `kernel_configs` is not taken).
inline constexpr GemmTiles kBmmTiles = {128, 128, 32, 1, 1};

/// The persistent kernel's tiles: the picks of TileGym's autotuner on the H200 (its sm_90 list: TILE_M,
/// TILE_N in {64, 128, 256}, TILE_K 64, occupancy 1 or 2, num_ctas 2; docs/porting-runs/bmm/analyze/gpu/
/// autotune.json). `config` of the op indexes these.
inline constexpr std::array<GemmTiles, 3> kPersistentBmmTiles = {{
    {256, 128, 64, 2, 2},  // every shape whose 256×128 tiles fill the clusters (2048 on, batch 8 at 1024)
    {128, 128, 64, 2, 2},  // batch 2 at 1024, TileGym's test (4, 1024, 512, 1024)
    {128, 64, 64, 2, 1},   // TileGym's test (4, 128, 256, 512)
}};

/// The op (bmm.cpp): TileGym's bmm, with transposes, both kernels and its H200 tiles.
extern const op::OpSpec bmm_op;

/// c[q] = op(a[q]) · op(b[q]). `config` -1 picks the persistent tiles by shape; else it indexes
/// kPersistentBmmTiles (static_persistent only).
void launch_bmm(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b, bool transpose_a,
                bool transpose_b, bool static_persistent, int64_t config);

}  // namespace cutile::kernels
