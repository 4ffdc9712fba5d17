// Elementwise math: float functions, min/max, select, fused multiply-add.
#pragma once

#include "cutile/arith.hpp"

namespace cutile {

/// Rounding of exp and tanh: `full` is the accurate default; `approx` trades accuracy for speed (f32).
enum class Precision { full, approx };

namespace detail {

template <Element E, TileShape S>
Tile<E, S> float_unary(ir::Opcode op, const Tile<E, S>& x, const std::source_location& where,
                       std::vector<ir::NamedAttribute> attrs = {}) {
  return Tile<E, S>(trace_at(where).unary(op, x.value(), std::move(attrs)));
}

inline std::vector<ir::NamedAttribute> precision_attr(Precision p) {
  if (p == Precision::full) return {};
  return {{"rounding_mode", ir::Attribute::enum_of(ir::EnumKind::rounding, ir::RoundingMode::approx)}};
}

}  // namespace detail

#define CUTILE_FLOAT_UNARY(NAME, OP)                                                                   \
  template <FloatElement E, TileShape S>                                                              \
  Tile<E, S> NAME(const Tile<E, S>& x, std::source_location where = std::source_location::current()) { \
    return detail::float_unary(OP, x, where);                                                         \
  }
CUTILE_FLOAT_UNARY(exp2, ir::Opcode::exp2)
CUTILE_FLOAT_UNARY(log, ir::Opcode::log)
CUTILE_FLOAT_UNARY(log2, ir::Opcode::log2)
CUTILE_FLOAT_UNARY(sqrt, ir::Opcode::sqrt)
CUTILE_FLOAT_UNARY(rsqrt, ir::Opcode::rsqrt)
CUTILE_FLOAT_UNARY(sin, ir::Opcode::sin)
CUTILE_FLOAT_UNARY(cos, ir::Opcode::cos)
CUTILE_FLOAT_UNARY(tan, ir::Opcode::tan)
CUTILE_FLOAT_UNARY(sinh, ir::Opcode::sinh)
CUTILE_FLOAT_UNARY(cosh, ir::Opcode::cosh)
CUTILE_FLOAT_UNARY(floor, ir::Opcode::floor)
CUTILE_FLOAT_UNARY(ceil, ir::Opcode::ceil)
#undef CUTILE_FLOAT_UNARY

template <FloatElement E, TileShape S>
Tile<E, S> exp(const Tile<E, S>& x, Precision precision = Precision::full,
               std::source_location where = std::source_location::current()) {
  return detail::float_unary(ir::Opcode::exp, x, where, detail::precision_attr(precision));
}

template <FloatElement E, TileShape S>
Tile<E, S> tanh(const Tile<E, S>& x, Precision precision = Precision::full,
                std::source_location where = std::source_location::current()) {
  return detail::float_unary(ir::Opcode::tanh, x, where, detail::precision_attr(precision));
}

template <Element E, TileShape S>
Tile<E, S> abs(const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
  return Tile<E, S>(detail::trace_at(where).unary(FloatElement<E> ? ir::Opcode::absf : ir::Opcode::absi, x.value()));
}

/// Elementwise maximum / minimum (float: NaN-ignoring, like fmax).
template <Element E, TileShape A, TileShape B>
  requires Broadcastable<A, B>
Tile<E, broadcast_shape<A, B>> maximum(const Tile<E, A>& a, const Tile<E, B>& b,
                                       std::source_location where = std::source_location::current()) {
  using R = broadcast_shape<A, B>;
  detail::trace_at(where);
  return detail::same_element_binary<E, R>(ir::Opcode::maxf, ir::Opcode::maxi, broadcast_to<R>(a).value(),
                                           broadcast_to<R>(b).value(), detail::signed_attr());
}

template <Element E, TileShape A, TileShape B>
  requires Broadcastable<A, B>
Tile<E, broadcast_shape<A, B>> minimum(const Tile<E, A>& a, const Tile<E, B>& b,
                                       std::source_location where = std::source_location::current()) {
  using R = broadcast_shape<A, B>;
  detail::trace_at(where);
  return detail::same_element_binary<E, R>(ir::Opcode::minf, ir::Opcode::mini, broadcast_to<R>(a).value(),
                                           broadcast_to<R>(b).value(), detail::signed_attr());
}

/// where(c, x, y): x where c is true, else y; all three broadcast together.
template <Element E, TileShape C, TileShape A, TileShape B>
  requires Broadcastable<C, A> && Broadcastable<broadcast_shape<C, A>, B>
Tile<E, broadcast_shape<broadcast_shape<C, A>, B>> where(const Tile<bool, C>& c, const Tile<E, A>& x,
                                                         const Tile<E, B>& y,
                                                         std::source_location where = std::source_location::current()) {
  using R = broadcast_shape<broadcast_shape<C, A>, B>;
  ir::Builder& b = detail::trace_at(where);
  return Tile<E, R>(b.select(broadcast_to<R>(c).value(), broadcast_to<R>(x).value(), broadcast_to<R>(y).value()));
}

/// a * b + c with one rounding.
template <FloatElement E, TileShape S>
Tile<E, S> fma(const Tile<E, S>& a, const Tile<E, S>& b, const Tile<E, S>& c,
               std::source_location where = std::source_location::current()) {
  return Tile<E, S>(detail::trace_at(where).fma(a.value(), b.value(), c.value()));
}

}  // namespace cutile
