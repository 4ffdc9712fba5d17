// Fused multi-head attention, forward (flash attention with an online softmax).
//   formula   O[bh, m, :] = Σ_n softmax_n(scale · Q[bh, m, :] · K[kv, n, :]) · V[kv, n, :], kv the K/V head
//             of query head bh (grouped-query attention: `query_group` query heads share one K/V head);
//             causal: only n ≤ m + input_pos take part
//   T         f16 or bf16 (Q, K, V and O share it); scores, softmax and accumulator in f32
//   D         head dimension; TM, TN: query rows and key columns per step
//   runtime   q, o: (B·H, S, D); k, v: (B·H_kv, S_kv, D) — contiguous (B, H, S, D) tensors viewed with
//             heads folded into the first dimension; qk_scale (e.g. 1/√D); input_pos: position of query
//             row 0 among the keys; heads H; query_group H / H_kv
//   grid      (⌈S/TM⌉, B·H, 1): o is written through Out<T, Shape<TM, 1, D>, Order<1, 0, 2>>, i.e. the
//             launch passes o.partition({TM, 1, D}, {1, 0, 2}); consecutive blocks share a head, as in
//             TileGym, so K and V stay in L2
// Each key step updates (m, l, acc): the running row max (base 2), the running sum of exp2(score − m)
// and the unnormalised output, with fma where cuTile Python fuses a multiply and an add. Key tiles before `mask_start` need no mask; the loop is split there, as
// cuTile Python splits it, so only the last steps (columns beyond S_kv, or causal, the diagonal) pay for
// the mask. K is read transposed through the partition's dim_map (TileGym's order=(0, 1, 3, 2)).
// Provenance: TileGym src/tilegym/ops/cutile/attention.py (1.5.1), `fmha_kernel_impl`.
#pragma once

#include <cmath>
#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element T, int64_t D, int64_t TM, int64_t TN, bool CAUSAL>
void fmha(Out<T, Shape<TM, 1, D>, Order<1, 0, 2>> o, In<T, Shape<dyn, dyn, D>> q, In<T, Shape<dyn, dyn, D>> k,
          In<T, Shape<dyn, dyn, D>> v, Float qk_scale, Int input_pos, Int heads, Int query_group) {
  using Row = Tile<float, Shape<TM, 1>>;
  using Acc = Tile<float, Shape<TM, D>>;
  using State = std::tuple<Row, Row, Acc>;
  auto [m_tile, bh, d_tile] = o.tile_index();
  const Int kv_head = bh / heads * (heads / query_group) + bh % heads / query_group;
  const Float scale = qk_scale * static_cast<float>(1.0 / std::log(2.0));  // exp(x) = exp2(x / ln 2)

  auto q_tile = reshape<Shape<TM, D>>(q.load(tile<1, TM, D>, {bh, m_tile, 0}, pad::zero));  // (TM, D)
  auto rows = reshape<Shape<TM, 1>>(iota<int32_t, TM>() + (m_tile * TM + input_pos));       // (TM, 1)

  const Int kv_len = k.template extent<1>();
  Int n_tiles = cdiv(kv_len, TN);
  Int mask_start = kv_len / TN;
  if constexpr (CAUSAL) {
    n_tiles = cdiv(minimum(input_pos + (m_tile + 1) * TM, kv_len), TN);
    mask_start = minimum((input_pos + m_tile * TM) / TN, mask_start);
  }

  // One key step; MASKED adds −inf to the scores of columns beyond S_kv (and, causal, above the diagonal).
  auto step = [&]<bool MASKED>(Int j, State state) {
    auto [m_prev, l_prev, acc_prev] = state;
    auto k_t = reshape<Shape<D, TN>>(
        k.load(tile<1, D, TN>, order<0, 2, 1>, {kv_head, 0, j}, pad::zero, {.latency = 2}));  // (D, TN)
    auto scores = mma(q_tile, k_t, zeros<float, TM, TN>());                                  // (TM, TN)
    if constexpr (MASKED) {
      auto cols = reshape<Shape<1, TN>>(iota<int32_t, TN>() + j * TN);  // (1, TN)
      auto keep = [&] {
        if constexpr (CAUSAL)
          return (cols < kv_len) & (rows >= cols);  // (TM, TN)
        else
          return broadcast_to<Shape<TM, TN>>(cols < kv_len);
      }();
      scores = scores + where(keep, zeros<float, TM, TN>(), full<float, TM, TN>(-INFINITY));
    }
    auto m_next = maximum(m_prev, max(scores, axis<1>, keepdims) * scale);  // (TM, 1)
    using Scores = Shape<TM, TN>;
    // scores · scale − m and l · α + Σp as single-rounding fmas, as cuTile Python fuses them.
    auto p = exp2(fma(scores, broadcast_to<Scores>(scale), broadcast_to<Scores>(-m_next)), ftz);  // (TM, TN)
    auto alpha = exp2(m_prev - m_next, ftz);                                                       // (TM, 1)
    auto v_tile = reshape<Shape<TN, D>>(v.load(tile<1, TN, D>, {kv_head, j, 0}, pad::zero, {.latency = 4}));  // (TN, D)
    return State{m_next, fma(l_prev, alpha, sum(p, axis<1>, keepdims)), mma(cast<T>(p), v_tile, acc_prev * alpha)};
  };
  State state{full<float, TM, 1>(-INFINITY), zeros<float, TM, 1>(), zeros<float, TM, D>()};
  state = loop(0, minimum(mask_start, n_tiles), state,
               [&](Int j, State s) { return step.template operator()<false>(j, s); });
  auto [m, l, acc] = loop(minimum(mask_start, n_tiles), n_tiles, state,
                          [&](Int j, State s) { return step.template operator()<true>(j, s); });
  o.store(reshape<Shape<TM, 1, D>>(cast<T>(div(acc, l, approx_ftz))));  // (TM, 1, D)
}

/// The op (fmha.cpp): attention of (B, H, S, D) queries over (B, G, L, D) keys and values.
extern const op::OpSpec fmha_op;

/// TileGym's first H200 candidate, 256 query rows by 128 key columns at occupancy 2 (its tuned relaunch),
/// over the (B·H, S, D) views of the tensors; NaN `scaling` is 1/√D.
void launch_fmha(op::Target& target, const AnyTensor& o, const AnyTensor& q, const AnyTensor& k, const AnyTensor& v,
                 double scaling, bool is_causal);

}  // namespace cutile::kernels
