// Elementwise math: float functions, min/max, select, fused multiply-add.
#pragma once

#include "cutile/arith.hpp"

namespace cutile {

/// The rounding of a float op's result. `standard` is the op's own default (nearest_even for arithmetic
/// and sqrt, the accurate `full` for exp and tanh); `approx` trades accuracy for speed where the op has
/// it (divf, sqrt, exp, tanh; f32).
enum class Rounding { standard, nearest_even, zero, down, up, approx };

/// How a float op computes: its rounding, and whether subnormal inputs and results flush to zero (f32
/// only). Which ops take which modes is checked where the op is traced.
struct FloatMode {
  Rounding rounding = Rounding::standard;
  bool flush_to_zero = false;
};
inline constexpr FloatMode ftz{.flush_to_zero = true};
inline constexpr FloatMode approx{.rounding = Rounding::approx};
inline constexpr FloatMode approx_ftz{.rounding = Rounding::approx, .flush_to_zero = true};

namespace detail {

/// What modes an op accepts: rounding modes (IEEE directed ones, approx) and flush_to_zero.
struct ModeSupport {
  bool directed = false;
  bool approx = false;
  bool flush = false;
};

/// The attributes for `mode` on op `name`; a located cutile::UserError for a mode the op lacks.
std::vector<ir::NamedAttribute> float_mode_attrs(std::string_view name, FloatMode mode, ModeSupport support,
                                                 bool is_f32, const std::source_location& where);

template <Element E, TileShape S>
Tile<E, S> float_unary(ir::Opcode op, const Tile<E, S>& x, const std::source_location& where,
                       std::vector<ir::NamedAttribute> attrs = {}) {
  return Tile<E, S>(trace_at(where).unary(op, x.value(), std::move(attrs)));
}

template <Element E, TileShape S>
Tile<E, S> moded_unary(ir::Opcode op, std::string_view name, const Tile<E, S>& x, FloatMode mode, ModeSupport support,
                       const std::source_location& where) {
  return float_unary(op, x, where, float_mode_attrs(name, mode, support, std::is_same_v<E, float>, where));
}

}  // namespace detail

#define CUTILE_FLOAT_UNARY(NAME, OP)                                                                   \
  template <FloatElement E, TileShape S>                                                              \
  Tile<E, S> NAME(const Tile<E, S>& x, std::source_location where = std::source_location::current()) { \
    return detail::float_unary(OP, x, where);                                                         \
  }
CUTILE_FLOAT_UNARY(log, ir::Opcode::log)
CUTILE_FLOAT_UNARY(log2, ir::Opcode::log2)
CUTILE_FLOAT_UNARY(sin, ir::Opcode::sin)
CUTILE_FLOAT_UNARY(cos, ir::Opcode::cos)
CUTILE_FLOAT_UNARY(tan, ir::Opcode::tan)
CUTILE_FLOAT_UNARY(sinh, ir::Opcode::sinh)
CUTILE_FLOAT_UNARY(cosh, ir::Opcode::cosh)
CUTILE_FLOAT_UNARY(floor, ir::Opcode::floor)
CUTILE_FLOAT_UNARY(ceil, ir::Opcode::ceil)
#undef CUTILE_FLOAT_UNARY

/// e^x; FloatMode: rounding approx.
template <FloatElement E, TileShape S>
Tile<E, S> exp(const Tile<E, S>& x, FloatMode mode = {}, std::source_location where = std::source_location::current()) {
  return detail::moded_unary(ir::Opcode::exp, "exp", x, mode, {.approx = true}, where);
}
/// 2^x; FloatMode: flush_to_zero.
template <FloatElement E, TileShape S>
Tile<E, S> exp2(const Tile<E, S>& x, FloatMode mode = {}, std::source_location where = std::source_location::current()) {
  return detail::moded_unary(ir::Opcode::exp2, "exp2", x, mode, {.flush = true}, where);
}
/// tanh x; FloatMode: rounding approx.
template <FloatElement E, TileShape S>
Tile<E, S> tanh(const Tile<E, S>& x, FloatMode mode = {}, std::source_location where = std::source_location::current()) {
  return detail::moded_unary(ir::Opcode::tanh, "tanh", x, mode, {.approx = true}, where);
}
/// √x; FloatMode: any rounding, flush_to_zero.
template <FloatElement E, TileShape S>
Tile<E, S> sqrt(const Tile<E, S>& x, FloatMode mode = {}, std::source_location where = std::source_location::current()) {
  return detail::moded_unary(ir::Opcode::sqrt, "sqrt", x, mode, {.directed = true, .approx = true, .flush = true}, where);
}
/// 1/√x; FloatMode: flush_to_zero.
template <FloatElement E, TileShape S>
Tile<E, S> rsqrt(const Tile<E, S>& x, FloatMode mode = {}, std::source_location where = std::source_location::current()) {
  return detail::moded_unary(ir::Opcode::rsqrt, "rsqrt", x, mode, {.flush = true}, where);
}

/// a + b, a − b, a · b, a / b with an explicit FloatMode (the operators use the standard one): directed
/// roundings and flush_to_zero; div also approx.
#define CUTILE_MODED_BINARY(NAME, OP, APPROX)                                                                 \
  template <FloatElement E, TileShape A, TileShape B>                                                        \
    requires Broadcastable<A, B>                                                                             \
  Tile<E, broadcast_shape<A, B>> NAME(const Tile<E, A>& a, const Tile<E, B>& b, FloatMode mode,              \
                                      std::source_location where = std::source_location::current()) {        \
    using R = broadcast_shape<A, B>;                                                                         \
    auto attrs = detail::float_mode_attrs(#NAME, mode, {.directed = true, .approx = APPROX, .flush = true},   \
                                          std::is_same_v<E, float>, where);                                  \
    return Tile<E, R>(                                                                                       \
        detail::trace_at(where).binary(OP, broadcast_to<R>(a).value(), broadcast_to<R>(b).value(), attrs));  \
  }
CUTILE_MODED_BINARY(add, ir::Opcode::addf, false)
CUTILE_MODED_BINARY(sub, ir::Opcode::subf, false)
CUTILE_MODED_BINARY(mul, ir::Opcode::mulf, false)
CUTILE_MODED_BINARY(div, ir::Opcode::divf, true)
#undef CUTILE_MODED_BINARY

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
