// Rung 08: attention forward, flash-attention style: softmax(scale · Q Kᵀ) V without the S×S scores.
//   formula  O[h, m, :] = Σ_n softmax_n(scale · Q[h, m, :] · K[h, n, :]) · V[h, n, :]; CAUSAL: n ≤ m only
//   T        f16 or bf16; scores, softmax and the accumulator are f32
//   D        the head dimension (static in the tensors' type); TM, TN: query rows and key rows per step
//   runtime  q, k, v, o: (H, S, D), batch and heads folded into H; scale, e.g. 1/√D
//   grid     (H, cdiv(S, TM), 1): a block per head and TM query rows
// Online softmax: the loop over key tiles carries (m, l, acc), the running row max, the running sum of
// exp(score − m) and the unnormalised output; a new max scales l and acc by exp(m_old − m_new), so one
// pass over K and V suffices. The library's fmha (kernels/attention) adds grouped-query heads, exp2 with
// the scale folded in, K read transposed from memory, and masks only on the key tiles that need them.
#pragma once

#include <cmath>
#include <tuple>

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element T, int64_t D, int64_t TM, int64_t TN, bool CAUSAL>
void flash_attention(ct::Out<T, ct::Shape<1, TM, D>> o, ct::In<T, ct::Shape<ct::dyn, ct::dyn, D>> q,
                     ct::In<T, ct::Shape<ct::dyn, ct::dyn, D>> k, ct::In<T, ct::Shape<ct::dyn, ct::dyn, D>> v,
                     ct::Float scale) {
  using Rows = ct::Tile<float, ct::Shape<TM, 1>>;
  using Acc = ct::Tile<float, ct::Shape<TM, D>>;
  using State = std::tuple<Rows, Rows, Acc>;
  auto [h, i, unused] = o.tile_index();
  const ct::Int s = ct::extent<1>(k);
  // Tile j of N rows of head h, as an (N, D) matrix: the box (1, N, D) of an (H, S, D) tensor.
  auto head_rows = [&]<int64_t N>(const auto& x, ct::tile_t<1, N, D> box, const ct::Int& j) {
    return ct::reshape<ct::Shape<N, D>>(x.load(box, {h, j, 0}, ct::pad::zero));
  };
  auto q_tile = head_rows(q, ct::tile<1, TM, D>, i);                             // (TM, D)
  auto q_pos = ct::reshape<ct::Shape<TM, 1>>(ct::iota<int32_t, TM>() + i * TM);  // (TM, 1) query positions
  // Causal: the key tiles past this block's last query row would be masked whole; the loop stops before.
  const ct::Int key_tiles = CAUSAL ? ct::cdiv(ct::minimum((i + 1) * TM, s), TN) : ct::cdiv(s, TN);

  const State init{ct::full<float, TM, 1>(-INFINITY), ct::zeros<float, TM, 1>(), ct::zeros<float, TM, D>()};
  auto [m, l, acc] = ct::loop(0, key_tiles, init, [&](ct::Int j, State state) {
    auto [m_prev, l_prev, acc_prev] = state;
    auto k_tile = head_rows(k, ct::tile<1, TN, D>, j);                                         // (TN, D)
    auto v_tile = head_rows(v, ct::tile<1, TN, D>, j);                                         // (TN, D)
    auto scores = ct::mma(q_tile, ct::transpose(k_tile), ct::zeros<float, TM, TN>()) * scale;  // (TM, TN)
    // Keys past the end (the padding of the last tile) and, causal, keys after the query take no part.
    auto cols = ct::reshape<ct::Shape<1, TN>>(ct::iota<int32_t, TN>() + j * TN);  // (1, TN)
    auto keep = [&] {
      if constexpr (CAUSAL)
        return (cols < s) & (cols <= q_pos);  // (TM, TN)
      else
        return ct::broadcast_to<ct::Shape<TM, TN>>(cols < s);
    }();
    scores = ct::where(keep, scores, ct::full<float, TM, TN>(-INFINITY));           // (TM, TN)
    auto m_next = ct::maximum(m_prev, ct::max(scores, ct::axis<1>, ct::keepdims));  // (TM, 1)
    auto p = ct::exp(scores - m_next);                                              // (TM, TN)
    auto alpha = ct::exp(m_prev - m_next);                                          // (TM, 1)
    return State{m_next, l_prev * alpha + ct::sum(p, ct::axis<1>, ct::keepdims),
                 ct::mma(ct::cast<T>(p), v_tile, acc_prev * alpha)};
  });
  o.store(ct::reshape<ct::Shape<1, TM, D>>(ct::cast<T>(acc / l)));  // (1, TM, D)
}

}  // namespace examples
