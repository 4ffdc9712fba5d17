// Tiles made from nothing: constants, zeros, iota.
#pragma once

#include "cutile/arith.hpp"

namespace cutile {

/// A tile of shape Shape<DIMS...> with every element `value`.
template <Element E, int64_t... DIMS>
  requires TileShape<Shape<DIMS...>>
Tile<E, Shape<DIMS...>> full(double value, std::source_location where = std::source_location::current()) {
  detail::trace_at(where);
  return detail::splat<E, Shape<DIMS...>>(value);
}

template <Element E, int64_t... DIMS>
  requires TileShape<Shape<DIMS...>>
Tile<E, Shape<DIMS...>> zeros(std::source_location where = std::source_location::current()) {
  return full<E, DIMS...>(0.0, where);
}

/// 0, 1, ..., N-1.
template <IntegerElement E, int64_t N>
  requires TileShape<Shape<N>>
Tile<E, Shape<N>> iota(std::source_location where = std::source_location::current()) {
  return Tile<E, Shape<N>>(detail::trace_at(where).iota(N, ir_element<E>));
}

}  // namespace cutile
