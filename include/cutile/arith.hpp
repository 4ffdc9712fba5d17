// Elementwise arithmetic and comparison operators on tiles. Operands must have the same element type
// (cast explicitly; nothing is promoted behind the user's back); shapes broadcast as in numpy; a plain
// number operand becomes a constant of the tile's element type.
#pragma once

#include <concepts>

#include "cutile/tile.hpp"

namespace cutile {
namespace detail {

template <Element E, TileShape S>
Tile<E, S> splat(double value) {
  ir::Builder& b = TraceContext::current(std::source_location::current()).builder();
  if constexpr (element_traits<E>::is_float)
    return Tile<E, S>(b.constant_float(ir_element<E>, value, S::vector()));
  else
    return Tile<E, S>(b.constant_int(ir_element<E>, static_cast<int64_t>(value), S::vector()));
}

template <class T>
concept Number = std::is_arithmetic_v<T>;

template <Element E, TileShape R>
Tile<E, R> same_element_binary(ir::Opcode float_op, ir::Opcode int_op, ir::Value* a, ir::Value* b,
                               std::vector<ir::NamedAttribute> int_attrs = {}) {
  ir::Builder& builder = TraceContext::current(std::source_location::current()).builder();
  if constexpr (element_traits<E>::is_float)
    return Tile<E, R>(builder.binary(float_op, a, b));
  else
    return Tile<E, R>(builder.binary(int_op, a, b, std::move(int_attrs)));
}

inline std::vector<ir::NamedAttribute> signed_attr() {
  return {{"signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)}};
}

}  // namespace detail

#define CUTILE_BINARY_OPERATOR(OP, FLOAT_OP, INT_OP, INT_ATTRS)                                          \
  template <Element E, TileShape A, TileShape B>                                                        \
    requires Broadcastable<A, B>                                                                        \
  Tile<E, broadcast_shape<A, B>> operator OP(const Tile<E, A>& a, const Tile<E, B>& b) {                \
    using R = broadcast_shape<A, B>;                                                                    \
    return detail::same_element_binary<E, R>(FLOAT_OP, INT_OP, broadcast_to<R>(a).value(),              \
                                             broadcast_to<R>(b).value(), INT_ATTRS);                    \
  }                                                                                                     \
  template <Element E, TileShape S, detail::Number N>                                                   \
  Tile<E, S> operator OP(const Tile<E, S>& a, N b) {                                                    \
    return a OP detail::splat<E, S>(static_cast<double>(b));                                            \
  }                                                                                                     \
  template <Element E, TileShape S, detail::Number N>                                                   \
  Tile<E, S> operator OP(N a, const Tile<E, S>& b) {                                                    \
    return detail::splat<E, S>(static_cast<double>(a)) OP b;                                            \
  }

// Integer division and remainder truncate toward zero, as in C++.
CUTILE_BINARY_OPERATOR(+, ir::Opcode::addf, ir::Opcode::addi, {})
CUTILE_BINARY_OPERATOR(-, ir::Opcode::subf, ir::Opcode::subi, {})
CUTILE_BINARY_OPERATOR(*, ir::Opcode::mulf, ir::Opcode::muli, {})
CUTILE_BINARY_OPERATOR(/, ir::Opcode::divf, ir::Opcode::divi, detail::signed_attr())
CUTILE_BINARY_OPERATOR(%, ir::Opcode::remf, ir::Opcode::remi, detail::signed_attr())
#undef CUTILE_BINARY_OPERATOR

#define CUTILE_BITWISE_OPERATOR(OP, INT_OP)                                                             \
  template <Element E, TileShape A, TileShape B>                                                        \
    requires IntegerElement<E> && Broadcastable<A, B>                                                   \
  Tile<E, broadcast_shape<A, B>> operator OP(const Tile<E, A>& a, const Tile<E, B>& b) {                \
    using R = broadcast_shape<A, B>;                                                                    \
    ir::Builder& builder = detail::TraceContext::current(std::source_location::current()).builder();    \
    return Tile<E, R>(builder.binary(INT_OP, broadcast_to<R>(a).value(), broadcast_to<R>(b).value()));  \
  }                                                                                                     \
  template <Element E, TileShape S, detail::Number N>                                                   \
    requires IntegerElement<E>                                                                          \
  Tile<E, S> operator OP(const Tile<E, S>& a, N b) {                                                    \
    return a OP detail::splat<E, S>(static_cast<double>(b));                                            \
  }

CUTILE_BITWISE_OPERATOR(&, ir::Opcode::andi)
CUTILE_BITWISE_OPERATOR(|, ir::Opcode::ori)
CUTILE_BITWISE_OPERATOR(^, ir::Opcode::xori)
CUTILE_BITWISE_OPERATOR(<<, ir::Opcode::shli)
#undef CUTILE_BITWISE_OPERATOR

/// Logical not of a bool tile, bitwise not of an integer tile.
template <TileShape S>
Tile<bool, S> operator!(const Tile<bool, S>& x) {
  return x ^ detail::splat<bool, S>(1);
}
template <Element E, TileShape S>
  requires IntegerElement<E> && (!std::is_same_v<E, bool>)
Tile<E, S> operator~(const Tile<E, S>& x) {
  return x ^ detail::splat<E, S>(-1);
}

/// Arithmetic shift right (the element types are signed).
template <Element E, TileShape A, TileShape B>
  requires IntegerElement<E> && Broadcastable<A, B>
Tile<E, broadcast_shape<A, B>> operator>>(const Tile<E, A>& a, const Tile<E, B>& b) {
  using R = broadcast_shape<A, B>;
  ir::Builder& builder = detail::TraceContext::current(std::source_location::current()).builder();
  return Tile<E, R>(builder.binary(ir::Opcode::shri, broadcast_to<R>(a).value(), broadcast_to<R>(b).value(),
                                   detail::signed_attr()));
}

template <Element E, TileShape S>
Tile<E, S> operator-(const Tile<E, S>& x) {
  ir::Builder& b = detail::TraceContext::current(std::source_location::current()).builder();
  return Tile<E, S>(b.unary(element_traits<E>::is_float ? ir::Opcode::negf : ir::Opcode::negi, x.value()));
}

// Comparisons give bool tiles. Float comparisons are ordered (false on NaN), except != which is
// unordered (true on NaN), matching IEEE and cuTile Python.
#define CUTILE_COMPARISON(OP, PREDICATE, ORDERING)                                                      \
  template <Element E, TileShape A, TileShape B>                                                        \
    requires Broadcastable<A, B>                                                                        \
  Tile<bool, broadcast_shape<A, B>> operator OP(const Tile<E, A>& a, const Tile<E, B>& b) {             \
    using R = broadcast_shape<A, B>;                                                                    \
    ir::Builder& builder = detail::TraceContext::current(std::source_location::current()).builder();    \
    ir::Value* lhs = broadcast_to<R>(a).value();                                                        \
    ir::Value* rhs = broadcast_to<R>(b).value();                                                        \
    if constexpr (element_traits<E>::is_float)                                                          \
      return Tile<bool, R>(builder.cmpf(ir::ComparisonPredicate::PREDICATE, lhs, rhs, ORDERING));       \
    else                                                                                                \
      return Tile<bool, R>(builder.cmpi(ir::ComparisonPredicate::PREDICATE, lhs, rhs));                 \
  }                                                                                                     \
  template <Element E, TileShape S, detail::Number N>                                                   \
  Tile<bool, S> operator OP(const Tile<E, S>& a, N b) {                                                 \
    return a OP detail::splat<E, S>(static_cast<double>(b));                                            \
  }

CUTILE_COMPARISON(==, equal, ir::ComparisonOrdering::ordered)
CUTILE_COMPARISON(!=, not_equal, ir::ComparisonOrdering::unordered)
CUTILE_COMPARISON(<, less_than, ir::ComparisonOrdering::ordered)
CUTILE_COMPARISON(<=, less_than_or_equal, ir::ComparisonOrdering::ordered)
CUTILE_COMPARISON(>, greater_than, ir::ComparisonOrdering::ordered)
CUTILE_COMPARISON(>=, greater_than_or_equal, ir::ComparisonOrdering::ordered)
#undef CUTILE_COMPARISON

}  // namespace cutile
