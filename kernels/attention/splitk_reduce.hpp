// The merge of split-KV attention decode partials: TileGym's `_splitk_reduce_kernel`, both of its bodies.
//   formula  out[b, h, :] = Σ_i w_i · o[b, h, i, :] / Σ_i w_i,   w_i = 2^(lse[b, h, i] − m),
//            m = max_i lse[b, h, i] (log-sum-exps in log2 units); computed in f32 (exp2 and the division
//            with the standard rounding, no flush), stored as E
//   E        f32, f16 or bf16 (attn_splitk_out and attn_out share it; lse is always f32)
//   P        next_pow2(K): the splits tile; splits past K load as zero and their lse as -inf (weight 0)
//   TILE_D   min(128, next_pow2(D)): the head-dim tile; columns past D load as zero, their stores clipped
//   USE_DOT  false: the numerator is Σ over the splits of o · w (a broadcast multiply and a column sum);
//            true: an mma of the (1, P) weights row with the f32 (P, TILE_D) splits tile (the launcher's
//            choice: P ≥ 16 from sm_90 on, P ≥ 4 below it, as TileGym's)
//   runtime  attn_splitk_out: (B, H, K, D), any strides, loaded as one (1, 1, P, TILE_D) view tile;
//            lse_splitk_out: (B, H, K) f32, any strides, gathered; attn_out: (B, H, D), written through its
//            (1, 1, TILE_D) partition
//   grid     (B, H, ⌈D/TILE_D⌉): block (b, h, z) merges the K splits of head h of batch b, columns
//            z·TILE_D … z·TILE_D + TILE_D − 1
// The view load and the store carry TileGym's latency hint 2; the entry's occupancy (4, sm_80: 2) is the
// launcher's. A K axis of one split (or B of one) is baked into the views by the launch, as cuTile
// Python's JIT marks unit extents static.
// Provenance: TileGym src/tilegym/ops/cutile/splitk_reduce.py (1.5.1), `_splitk_reduce_kernel`.
#pragma once

#include <cstdint>
#include <limits>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t P, int64_t TILE_D, bool USE_DOT>
void splitk_reduce(Out<E, Shape<1, 1, TILE_D>> attn_out, In<E, Shape<dyn, dyn, dyn, dyn>> attn_splitk_out,
                   In<float, Shape<dyn, dyn, dyn>> lse_splitk_out) {
  auto [b, h, z] = attn_out.tile_index();
  auto splits = reshape<Shape<P, TILE_D>>(
      attn_splitk_out.load(tile<1, 1, P, TILE_D>, {b, h, 0, z}, pad::zero, {.latency = 2}));  // (P, TILE_D)
  const auto offs = iota<int32_t, P>();                                                       // (P)
  auto lse = lse_splitk_out.gather(at(b, h, offs), {.padding = -std::numeric_limits<double>::infinity()});  // (P)
  auto lse_max = max(lse, axis<0>);                // ()
  auto weights = exp2(lse - lse_max);              // (P)
  auto weight_sum = sum(weights, axis<0>);         // ()
  if constexpr (USE_DOT) {
    auto row = reshape<Shape<1, P>>(weights);      // (1, P)
    auto splits_f = cast<float>(splits);           // (P, TILE_D)
    auto acc = mma(row, splits_f, zeros<float, 1, TILE_D>());                                      // (1, TILE_D)
    const Int zero = full<int32_t>(0);
    auto numerator = extract<Shape<1, TILE_D>>(acc, {zero, zero});                                 // (1, TILE_D)
    attn_out.store(reshape<Shape<1, 1, TILE_D>>(cast<E>(numerator / weight_sum)), {.latency = 2});  // (1, 1, TILE_D)
  } else {
    auto column = reshape<Shape<P, 1>>(weights);   // (P, 1)
    auto splits_f = cast<float>(splits);           // (P, TILE_D)
    auto numerator = sum(splits_f * column, axis<0>);                                              // (TILE_D)
    attn_out.store(reshape<Shape<1, 1, TILE_D>>(cast<E>(numerator / weight_sum)), {.latency = 2});  // (1, 1, TILE_D)
  }
}

/// The op (splitk_reduce.cpp): TileGym's splitk_reduce(attn_splitk_out, lse_splitk_out, attn_out, S_kv).
extern const op::OpSpec splitk_reduce_op;

/// TileGym's launch policy: TILE_D = min(128, next_pow2(D)), P = next_pow2(K), USE_DOT = P ≥ 16 (P ≥ 4
/// below sm_90; the interpreter takes the H200's 16), occupancy 4 (sm_80: 2).
void launch_splitk_reduce(op::Target& target, const AnyTensor& attn_out, const AnyTensor& attn_splitk_out,
                          const AnyTensor& lse_splitk_out);

}  // namespace cutile::kernels
