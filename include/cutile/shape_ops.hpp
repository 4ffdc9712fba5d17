// Shape changes: reshape, broadcast (see tile.hpp), permute and transpose, expand_dims.
#pragma once

#include <array>

#include "cutile/tile.hpp"

namespace cutile {

/// The same elements in row-major order, seen as shape `To`.
template <ShapeType To, Element E, TileShape S>
  requires TileShape<To> && (num_elements<To> == num_elements<S>)
Tile<E, To> reshape(const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
  return Tile<E, To>(detail::trace_at(where).reshape(x.value(), To::vector()));
}

/// A unit dimension inserted before axis A.
template <size_t A, Element E, TileShape S>
  requires(A <= S::rank)
Tile<E, insert_axis<S, A>> expand_dims(const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
  return reshape<insert_axis<S, A>>(x, where);
}

namespace detail {
template <class S, size_t... P>
using permuted_shape = Shape<S::dims[P]...>;

template <size_t... P>
constexpr bool is_permutation() {
  std::array<size_t, sizeof...(P)> p = {P...};
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] >= p.size()) return false;
    for (size_t j = 0; j < i; ++j)
      if (p[i] == p[j]) return false;
  }
  return true;
}
}  // namespace detail

/// Result dimension i is source dimension P[i].
template <size_t... P, Element E, TileShape S>
  requires(sizeof...(P) == S::rank && S::rank >= 2 && detail::is_permutation<P...>())
Tile<E, detail::permuted_shape<S, P...>> permute(const Tile<E, S>& x,
                                                 std::source_location where = std::source_location::current()) {
  return Tile<E, detail::permuted_shape<S, P...>>(
      detail::trace_at(where).permute(x.value(), {static_cast<int64_t>(P)...}));
}

/// Swaps the two dimensions of a 2-D tile.
template <Element E, int64_t M, int64_t N>
Tile<E, Shape<N, M>> transpose(const Tile<E, Shape<M, N>>& x, std::source_location where = std::source_location::current()) {
  return permute<1, 0>(x, where);
}

}  // namespace cutile
