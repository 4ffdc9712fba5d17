// Rotary position embedding (HuggingFace Llama form), applied in place to the query and key heads of one
// sequence position per tile block.
//   formula  for i < R/2, per head h:  x[h, i]       ← x[h, i] · cos[i] − x[h, i + R/2] · sin[i]
//                                      x[h, i + R/2] ← x[h, i + R/2] · cos[i] + x[h, i] · sin[i]
//            (x·cos + rotate_half(x)·sin over the first R head dims; dims R … D−1 are not touched;
//            cos/sin repeat their first half, so only cos[0:R/2], sin[0:R/2] are read); computed in E,
//            as cuTile Python does (no f32 round trip: a product and an fma rounded to E per element)
//   E        f32, f16 or bf16 (q, k, cos and sin share it)
//   TILE_QH, TILE_KH  powers of two ≥ the query / key head counts Hq, Hk
//   TILE_RD  R/2, a power of two: one half of the rotated dims (cuTile Python's second tile-space dim tile
//            starts at TILE_RD too, so its kernel is right only for such R as well)
//   runtime  q: (B·S, Hq, R) and k: (B·S, Hk, R), the rotated part of (B, H, S, D) tensors viewed with
//            batch and position folded into rows (row = b·S + s; any strides that allow the fold), each
//            written through its (1, TILE_QH | TILE_KH, 2·TILE_RD) partition; cos, sin: (CB, S, ≥ R/2)
//            with CB 1 (shared by the batch) or B; seq_len S
//   grid     (B·S, 1, 1): one row (all heads of q and of k) per block; launched with occupancy 9, TileGym's
//            setting when it does not autotune (it tunes among 1, 7, 9, 12)
// rope_backward is the same rotation by −θ (sin negated) of the gradients: the rotation is orthogonal.
// In place through the safe API: q and k are the kernel's two outputs, and each block reads the two halves
// of its own (1, TILE_H, 2·TILE_RD) tile as two (1, TILE_H, TILE_RD) parts (Out's partial load and store,
// as cuTile Python reads dim tiles 0 and 1 of a 4-D view) before storing them, so the stores wait for the
// loads on the tile's token chain; the launch refuses a q or k that overlaps another argument, and no two
// blocks share a tile. Padded heads load as zero and their stores are clipped by the partition.
// Provenance: TileGym src/tilegym/ops/cutile/rope.py (1.5.1), `_rope_kernel`; the cos row index is
// `b mod CB` rather than a compile-time COS_BS.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

namespace rope_detail {

// x ← x·cos + rotate_half(x)·sin on this block's (1, TILE_H, 2·TILE_RD) tile of one output, half by half.
template <Element E, int64_t TILE_H, int64_t TILE_RD>
void rotate(const Out<E, Shape<1, TILE_H, 2 * TILE_RD>>& x, const Tile<E, Shape<1, 1, TILE_RD>>& c,
            const Tile<E, Shape<1, 1, TILE_RD>>& s) {
  using Half = Shape<1, TILE_H, TILE_RD>;
  auto x1 = x.load(tile<1, TILE_H, TILE_RD>, {0, 0, 0}, pad::zero);  // (1, TILE_H, TILE_RD)
  auto x2 = x.load(tile<1, TILE_H, TILE_RD>, {0, 0, 1}, pad::zero);  // (1, TILE_H, TILE_RD)
  auto cb = broadcast_to<Half>(c), sb = broadcast_to<Half>(s);       // (1, TILE_H, TILE_RD)
  // A multiply and a fused multiply-add per half, as cuTile Python contracts x1·cos − x2·sin.
  x.store(tile<1, TILE_H, TILE_RD>, {0, 0, 0}, fma(x1, cb, -(x2 * sb)));
  x.store(tile<1, TILE_H, TILE_RD>, {0, 0, 1}, fma(x2, cb, x1 * sb));
}

// One row's q and k heads rotated by the angles of its position (and batch); `inverse` negates sin.
template <Element E, int64_t TILE_QH, int64_t TILE_KH, int64_t TILE_RD>
void rotate_row(const Out<E, Shape<1, TILE_QH, 2 * TILE_RD>>& q, const Out<E, Shape<1, TILE_KH, 2 * TILE_RD>>& k,
                const In<E, Shape<dyn, dyn, dyn>>& cos, const In<E, Shape<dyn, dyn, dyn>>& sin, const Int& row,
                const Int& seq_len, bool inverse) {
  const Int pos = row % seq_len;
  const Int table = row / seq_len % cos.template extent<0>();  // the batch's cos/sin, or the shared one
  auto c = cos.load(tile<1, 1, TILE_RD>, {table, pos, 0}, pad::zero);  // (1, 1, TILE_RD)
  auto s = sin.load(tile<1, 1, TILE_RD>, {table, pos, 0}, pad::zero);  // (1, 1, TILE_RD)
  if (inverse) s = -s;
  rotate<E, TILE_QH, TILE_RD>(q, c, s);
  rotate<E, TILE_KH, TILE_RD>(k, c, s);
}

}  // namespace rope_detail

// Each kernel's first tile operation is its own (the entry is named after the function that traces first).
template <Element E, int64_t TILE_QH, int64_t TILE_KH, int64_t TILE_RD>
void rope(Out<E, Shape<1, TILE_QH, 2 * TILE_RD>> q, Out<E, Shape<1, TILE_KH, 2 * TILE_RD>> k,
          In<E, Shape<dyn, dyn, dyn>> cos, In<E, Shape<dyn, dyn, dyn>> sin, Int seq_len) {
  auto [row, head_tile, dim_tile] = q.tile_index();
  rope_detail::rotate_row<E, TILE_QH, TILE_KH, TILE_RD>(q, k, cos, sin, row, seq_len, false);
}

/// The backward: the gradients dq, dk rotated in place by −θ, the transpose of the rotation.
template <Element E, int64_t TILE_QH, int64_t TILE_KH, int64_t TILE_RD>
void rope_backward(Out<E, Shape<1, TILE_QH, 2 * TILE_RD>> dq, Out<E, Shape<1, TILE_KH, 2 * TILE_RD>> dk,
                   In<E, Shape<dyn, dyn, dyn>> cos, In<E, Shape<dyn, dyn, dyn>> sin, Int seq_len) {
  auto [row, head_tile, dim_tile] = dq.tile_index();
  rope_detail::rotate_row<E, TILE_QH, TILE_KH, TILE_RD>(dq, dk, cos, sin, row, seq_len, true);
}

/// The ops (rope.cpp): the rotation and its backward, in place.
extern const op::OpSpec rope_op;
extern const op::OpSpec rope_backward_op;

/// TileGym's grid, one (B·S) row per block, occupancy 9; one head tile for q and k, next_pow2(max(Hq, Hk)),
/// and TILE_RD = R/2. One launch over all B·S rows when q and k both fold batch and position into rows
/// (their batch stride is S times their position stride, or B = 1, or S = 1); else one launch per batch.
void launch_rope(op::Target& target, const AnyTensor& q, const AnyTensor& k, const AnyTensor& cos,
                 const AnyTensor& sin, int64_t rope_dim);
void launch_rope_backward(op::Target& target, const AnyTensor& dq, const AnyTensor& dk, const AnyTensor& cos,
                          const AnyTensor& sin, int64_t rope_dim);

}  // namespace cutile::kernels
