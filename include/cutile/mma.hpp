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

/// fp8 operands, the only ones with a fast accumulation mode.
template <class In>
inline constexpr bool fp8_operand = std::is_same_v<In, f8e4m3fn> || std::is_same_v<In, f8e5m2>;

namespace detail {
template <Element In, Element Acc, TileShape R, bool FAST_ACC = false>
Tile<Acc, R> mma_op(ir::Value* a, ir::Value* b, ir::Value* acc, const std::source_location& where) {
  ir::Builder& builder = trace_at(where);
  if constexpr (std::is_same_v<In, int8_t>) {
    const auto s = ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_);
    return Tile<Acc, R>(builder.create_value(ir::Opcode::mmai, acc->type(), {a, b, acc},
                                             {{"signedness_lhs", s}, {"signedness_rhs", s}}));
  } else if constexpr (FAST_ACC) {
    return Tile<Acc, R>(
        builder.create_value(ir::Opcode::mmaf, acc->type(), {a, b, acc}, {{"fast_acc", ir::Attribute::unit()}}));
  } else {
    return Tile<Acc, R>(builder.mmaf(a, b, acc));
  }
}
}  // namespace detail

/// acc + a @ b for a (M, K), b (K, N), acc (M, N). Operand / accumulator pairs: see mma_pair; cast f32
/// operands to tf32 for the tensor cores' reduced-precision f32 format (as cuTile Python does).
template <Element In, Element Acc, int64_t M, int64_t N, int64_t K>
  requires mma_pair<In, Acc>
Tile<Acc, Shape<M, N>> mma(const Tile<In, Shape<M, K>>& a, const Tile<In, Shape<K, N>>& b,
                           const Tile<Acc, Shape<M, N>>& acc,
                           std::source_location where = std::source_location::current()) {
  return detail::mma_op<In, Acc, Shape<M, N>>(a.value(), b.value(), acc.value(), where);
}

/// Batched: acc[i] + a[i] @ b[i] for a (B, M, K), b (B, K, N), acc (B, M, N).
template <Element In, Element Acc, int64_t B, int64_t M, int64_t N, int64_t K>
  requires mma_pair<In, Acc>
Tile<Acc, Shape<B, M, N>> mma(const Tile<In, Shape<B, M, K>>& a, const Tile<In, Shape<B, K, N>>& b,
                              const Tile<Acc, Shape<B, M, N>>& acc,
                              std::source_location where = std::source_location::current()) {
  return detail::mma_op<In, Acc, Shape<B, M, N>>(a.value(), b.value(), acc.value(), where);
}

/// mma with the tensor cores' fast fp8 accumulation (cuTile Python's `use_fast_acc=True`; bytecode 13.3):
/// partial sums stay in the tensor cores' reduced-precision accumulator instead of being promoted to
/// Acc at intervals along K, which is faster and less accurate for long K. fp8 operands only.
template <Element In, Element Acc, int64_t M, int64_t N, int64_t K>
  requires mma_pair<In, Acc> && fp8_operand<In>
Tile<Acc, Shape<M, N>> mma_fast_acc(const Tile<In, Shape<M, K>>& a, const Tile<In, Shape<K, N>>& b,
                                    const Tile<Acc, Shape<M, N>>& acc,
                                    std::source_location where = std::source_location::current()) {
  return detail::mma_op<In, Acc, Shape<M, N>, true>(a.value(), b.value(), acc.value(), where);
}

/// Batched mma_fast_acc.
template <Element In, Element Acc, int64_t B, int64_t M, int64_t N, int64_t K>
  requires mma_pair<In, Acc> && fp8_operand<In>
Tile<Acc, Shape<B, M, N>> mma_fast_acc(const Tile<In, Shape<B, M, K>>& a, const Tile<In, Shape<B, K, N>>& b,
                                       const Tile<Acc, Shape<B, M, N>>& acc,
                                       std::source_location where = std::source_location::current()) {
  return detail::mma_op<In, Acc, Shape<B, M, N>, true>(a.value(), b.value(), acc.value(), where);
}

}  // namespace cutile
