// Reductions over one axis: sum, max, min, prod, argmax, argmin, and reduce() with a user-defined
// combiner; the result drops the axis, or keeps it as 1 with `keepdims`. Scans over one axis: cumsum,
// cumprod, and scan() with a user-defined combiner. Nothing is upcast: sum an f16 tile in f32 by casting
// it first.
#pragma once

#include <limits>

#include "cutile/arith.hpp"
#include "cutile/math.hpp"

namespace cutile {

template <size_t A>
struct axis_t {
  static constexpr size_t value = A;
};
template <size_t A>
inline constexpr axis_t<A> axis{};

struct keepdims_t {};
inline constexpr keepdims_t keepdims{};

namespace detail {

// One reduce op over `Axis` whose body combines two scalars with `combine`.
template <size_t Axis, Element E, TileShape S, class Combine>
Tile<E, drop_axis<S, Axis>> reduce_axis(const Tile<E, S>& x, double identity, Combine combine,
                                        const std::source_location& where) {
  ir::Builder& b = trace_at(where);
  ir::Type element = ir::Type::element(ir_element<E>);
  ir::Attribute id = FloatElement<E> ? ir::Attribute::floating(element, identity)
                                     : ir::Attribute::integer(element, static_cast<int64_t>(identity));
  std::vector<ir::Value*> results =
      b.reduce({x.value()}, static_cast<int64_t>(Axis), {id}, [&](ir::Builder&, std::span<ir::Value* const> args) {
        using Scalar = Tile<E, Shape<>>;
        return std::vector<ir::Value*>{combine(Scalar(args[0]), Scalar(args[1])).value()};
      });
  return Tile<E, drop_axis<S, Axis>>(results[0]);
}

template <size_t Axis, Element E, TileShape S>
Tile<E, keep_axis<S, Axis>> keep(const Tile<E, drop_axis<S, Axis>>& reduced, const std::source_location& where) {
  return Tile<E, keep_axis<S, Axis>>(trace_at(where).reshape(reduced.value(), keep_axis<S, Axis>::vector()));
}

template <Element E>
constexpr double lowest() {
  return FloatElement<E> ? -std::numeric_limits<double>::infinity()
                         : static_cast<double>(std::numeric_limits<E>::lowest());
}
template <Element E>
constexpr double highest() {
  return FloatElement<E> ? std::numeric_limits<double>::infinity()
                         : static_cast<double>(std::numeric_limits<E>::max());
}

}  // namespace detail

/// reduce(x, axis<A>, identity, combine): combine is (Tile<E,Shape<>>, Tile<E,Shape<>>) -> Tile<E,Shape<>>,
/// associative and commutative, with `identity` its neutral element.
template <Element E, TileShape S, size_t A, class Combine>
Tile<E, drop_axis<S, A>> reduce(const Tile<E, S>& x, axis_t<A>, double identity, Combine combine,
                                std::source_location where = std::source_location::current()) {
  return detail::reduce_axis<A>(x, identity, combine, where);
}

#define CUTILE_REDUCTION(NAME, IDENTITY, COMBINE)                                                       \
  template <Element E, TileShape S, size_t A>                                                          \
  Tile<E, drop_axis<S, A>> NAME(const Tile<E, S>& x, axis_t<A>,                                        \
                                std::source_location where = std::source_location::current()) {        \
    return detail::reduce_axis<A>(x, IDENTITY, [](auto l, auto r) { return COMBINE; }, where);          \
  }                                                                                                    \
  template <Element E, TileShape S, size_t A>                                                          \
  Tile<E, keep_axis<S, A>> NAME(const Tile<E, S>& x, axis_t<A> a, keepdims_t,                          \
                                std::source_location where = std::source_location::current()) {        \
    return detail::keep<A, E, S>(NAME(x, a, where), where);                                            \
  }

CUTILE_REDUCTION(sum, 0.0, l + r)
CUTILE_REDUCTION(prod, 1.0, l * r)
CUTILE_REDUCTION(max, detail::lowest<E>(), maximum(l, r))
CUTILE_REDUCTION(min, detail::highest<E>(), minimum(l, r))
#undef CUTILE_REDUCTION

namespace detail {

// The position along axis A of every element of an S tile, as i32.
template <TileShape S, size_t A>
Tile<int32_t, S> positions(const std::source_location& where) {
  ir::Builder& b = trace_at(where);
  std::array<int64_t, S::rank> line{};
  line.fill(1);
  line[A] = S::dims[A];
  ir::Value* along = b.reshape(b.iota(S::dims[A], ir::ElementType::i32), {line.begin(), line.end()});
  return Tile<int32_t, S>(b.broadcast(along, S::vector()));
}

// argmax (GREATER) / argmin: the first position holding the extreme value (NaNs are not special).
template <size_t A, bool GREATER, Element E, TileShape S>
  requires FloatElement<E> || IntegerElement<E>
Tile<int32_t, drop_axis<S, A>> arg_extreme(const Tile<E, S>& x, const std::source_location& where) {
  ir::Builder& b = trace_at(where);
  const ir::Type element = ir::Type::element(ir_element<E>);
  const double worst = GREATER ? lowest<E>() : highest<E>();
  const ir::Attribute value_identity = FloatElement<E> ? ir::Attribute::floating(element, worst)
                                                       : ir::Attribute::integer(element, static_cast<int64_t>(worst));
  const ir::Attribute index_identity = ir::Attribute::integer(ir::Type::element(ir::ElementType::i32), INT32_MAX);
  std::vector<ir::Value*> results = b.reduce(
      {x.value(), positions<S, A>(where).value()}, static_cast<int64_t>(A), {value_identity, index_identity},
      [&](ir::Builder&, std::span<ir::Value* const> args) {
        using Value = Tile<E, Shape<>>;
        const Value v(args[0]), best(args[1]);
        const Int i(args[2]), best_i(args[3]);
        const Bool wins = (GREATER ? v > best : v < best) | ((v == best) & (i < best_i));
        return std::vector<ir::Value*>{cutile::where(wins, v, best, where).value(), cutile::where(wins, i, best_i, where).value()};
      });
  return Tile<int32_t, drop_axis<S, A>>(results[1]);
}

template <size_t Axis, Element E, TileShape S, class Combine>
Tile<E, S> scan_axis(const Tile<E, S>& x, double identity, bool reverse, Combine combine,
                     const std::source_location& where) {
  ir::Builder& b = trace_at(where);
  ir::Type element = ir::Type::element(ir_element<E>);
  ir::Attribute id = FloatElement<E> ? ir::Attribute::floating(element, identity)
                                     : ir::Attribute::integer(element, static_cast<int64_t>(identity));
  std::vector<ir::Value*> results = b.scan({x.value()}, static_cast<int64_t>(Axis), reverse, {id},
                                           [&](ir::Builder&, std::span<ir::Value* const> args) {
                                             using Scalar = Tile<E, Shape<>>;
                                             return std::vector<ir::Value*>{
                                                 combine(Scalar(args[0]), Scalar(args[1])).value()};
                                           });
  return Tile<E, S>(results[0]);
}

}  // namespace detail

/// Index (i32) of the largest / smallest element along axis A; the first one on ties.
template <Element E, TileShape S, size_t A>
Tile<int32_t, drop_axis<S, A>> argmax(const Tile<E, S>& x, axis_t<A>,
                                      std::source_location where = std::source_location::current()) {
  return detail::arg_extreme<A, true>(x, where);
}
template <Element E, TileShape S, size_t A>
Tile<int32_t, drop_axis<S, A>> argmin(const Tile<E, S>& x, axis_t<A>,
                                      std::source_location where = std::source_location::current()) {
  return detail::arg_extreme<A, false>(x, where);
}

struct reverse_t {};
/// Scans from the last element to the first.
inline constexpr reverse_t reverse{};

/// Inclusive scan along axis A: element i combines elements 0..i (n-1..i with `reverse`); `combine` is
/// associative with `identity` its neutral element.
template <Element E, TileShape S, size_t A, class Combine>
Tile<E, S> scan(const Tile<E, S>& x, axis_t<A>, double identity, Combine combine,
                std::source_location where = std::source_location::current()) {
  return detail::scan_axis<A>(x, identity, false, combine, where);
}
template <Element E, TileShape S, size_t A, class Combine>
Tile<E, S> scan(const Tile<E, S>& x, axis_t<A>, reverse_t, double identity, Combine combine,
                std::source_location where = std::source_location::current()) {
  return detail::scan_axis<A>(x, identity, true, combine, where);
}

template <Element E, TileShape S, size_t A>
Tile<E, S> cumsum(const Tile<E, S>& x, axis_t<A>, std::source_location where = std::source_location::current()) {
  return detail::scan_axis<A>(x, 0.0, false, [](auto l, auto r) { return l + r; }, where);
}
template <Element E, TileShape S, size_t A>
Tile<E, S> cumprod(const Tile<E, S>& x, axis_t<A>, std::source_location where = std::source_location::current()) {
  return detail::scan_axis<A>(x, 1.0, false, [](auto l, auto r) { return l * r; }, where);
}

}  // namespace cutile
