// Reductions over one axis: sum, max, min, prod, and reduce() with a user-defined combiner. The result
// drops the axis, or keeps it as 1 with `keepdims`. Nothing is upcast: sum an f16 tile in f32 by
// casting it first.
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

}  // namespace cutile
