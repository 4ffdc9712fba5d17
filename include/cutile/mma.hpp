// Matrix multiply-accumulate on tiles: acc + a @ b, on the tensor cores.
#pragma once

#include "cutile/tile.hpp"

namespace cutile {

/// The operand / accumulator pairs the hardware supports.
template <class In, class Acc>
inline constexpr bool mma_pair =
    (std::is_same_v<In, f16> && (std::is_same_v<Acc, f16> || std::is_same_v<Acc, float>)) ||
    (std::is_same_v<In, bf16> && std::is_same_v<Acc, float>) ||
    (std::is_same_v<In, float> && std::is_same_v<Acc, float>) ||
    (std::is_same_v<In, tf32> && std::is_same_v<Acc, float>) ||
    (std::is_same_v<In, double> && std::is_same_v<Acc, double>) ||
    ((std::is_same_v<In, f8e4m3fn> || std::is_same_v<In, f8e5m2>) &&
     (std::is_same_v<Acc, f16> || std::is_same_v<Acc, float>)) ||
    (std::is_same_v<In, int8_t> && std::is_same_v<Acc, int32_t>);

/// acc + a @ b for a (M, K), b (K, N), acc (M, N).
template <Element In, Element Acc, int64_t M, int64_t N, int64_t K>
  requires mma_pair<In, Acc>
Tile<Acc, Shape<M, N>> mma(const Tile<In, Shape<M, K>>& a, const Tile<In, Shape<K, N>>& b,
                           const Tile<Acc, Shape<M, N>>& acc,
                           std::source_location where = std::source_location::current()) {
  ir::Builder& builder = detail::trace_at(where);
  if constexpr (std::is_same_v<In, int8_t>) {
    const auto s = ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_);
    return Tile<Acc, Shape<M, N>>(builder.create_value(ir::Opcode::mmai, acc.value()->type(),
                                                       {a.value(), b.value(), acc.value()},
                                                       {{"signedness_lhs", s}, {"signedness_rhs", s}}));
  } else {
    return Tile<Acc, Shape<M, N>>(builder.mmaf(a.value(), b.value(), acc.value()));
  }
}

}  // namespace cutile
