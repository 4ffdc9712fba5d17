// Fused multi-head attention, forward (flash attention with an online softmax).
//   formula   O[bh, m, :] = Σ_n softmax_n(scale · Q[bh, m, :] · K[kv, n, :]) · V[kv, n, :], kv the K/V head
//             of query head bh (grouped-query attention: `query_group` query heads share one K/V head);
//             causal: only n ≤ m + input_pos take part
//   T         f16 or bf16 (Q, K, V and O share it); scores, softmax and accumulator in f32
//   D         head dimension; TM, TN: query rows and key columns per step
//   runtime   q, o: (B·H, S, D); k, v: (B·H_kv, S_kv, D) — contiguous (B, H, S, D) tensors viewed with
//             heads folded into the first dimension; qk_scale (e.g. 1/√D); input_pos: position of query
//             row 0 among the keys; heads H; query_group H / H_kv
//   grid      (B·H, ⌈S/TM⌉, 1)
// The loop over key tiles carries (m, l, acc): the running row max (base 2), the running sum of
// exp2(score − m) and the unnormalised output. Key tiles from `mask_start` on may hold masked columns
// (beyond S_kv or, causal, beyond the diagonal); only those pay for the mask.
// Provenance: TileGym src/tilegym/ops/cutile/attention.py (1.5.1), `fmha_kernel_impl`.
#pragma once

#include <cmath>
#include <cstdint>
#include <tuple>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element T, int64_t D, int64_t TM, int64_t TN, bool CAUSAL>
void fmha(Out<T, Shape<1, TM, D>> o, In<T, Shape<dyn, dyn, D>> q, In<T, Shape<dyn, dyn, D>> k,
          In<T, Shape<dyn, dyn, D>> v, Float qk_scale, Int input_pos, Int heads, Int query_group) {
  using Row = Tile<float, Shape<TM, 1>>;
  using Acc = Tile<float, Shape<TM, D>>;
  auto [bh, m_tile, d_tile] = o.tile_index();
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

  auto init = std::tuple{full<float, TM, 1>(-INFINITY), zeros<float, TM, 1>(), zeros<float, TM, D>()};
  auto [m, l, acc] = loop(0, n_tiles, init, [&](Int j, std::tuple<Row, Row, Acc> state) {
    auto [m_prev, l_prev, acc_prev] = state;
    auto k_tile = transpose(reshape<Shape<TN, D>>(k.load(tile<1, TN, D>, {kv_head, j, 0}, pad::zero)));  // (D, TN)
    auto scores = mma(q_tile, k_tile, zeros<float, TM, TN>());                                          // (TM, TN)
    scores = cond(
        j >= mask_start,
        [&] {
          auto cols = reshape<Shape<1, TN>>(iota<int32_t, TN>() + j * TN);  // (1, TN)
          auto keep = cols < kv_len;                                       // (1, TN)
          auto bias = [&] {
            if constexpr (CAUSAL)
              return where(keep & (rows >= cols), zeros<float, TM, TN>(), full<float, TM, TN>(-INFINITY));
            else
              return where(keep, zeros<float, TM, TN>(), full<float, TM, TN>(-INFINITY));
          }();
          return scores + bias;
        },
        [&] { return scores; });
    auto m_next = maximum(m_prev, max(scores, axis<1>, keepdims) * scale);  // (TM, 1)
    auto p = exp2(scores * scale - m_next, ftz);                            // (TM, TN)
    auto alpha = exp2(m_prev - m_next, ftz);                                // (TM, 1)
    auto v_tile = reshape<Shape<TN, D>>(v.load(tile<1, TN, D>, {kv_head, j, 0}, pad::zero));  // (TN, D)
    return std::tuple{m_next, l_prev * alpha + sum(p, axis<1>, keepdims), mma(cast<T>(p), v_tile, acc_prev * alpha)};
  });
  o.store(reshape<Shape<1, TM, D>>(cast<T>(div(acc, l, approx_ftz))));  // (1, TM, D)
}

}  // namespace cutile::kernels
