// Shape changes: reshape, broadcast (see tile.hpp), permute and transpose, expand_dims, cat, extract.
#pragma once

#include <array>

#include "cutile/tile.hpp"

namespace cutile {

/// The same elements in row-major order, seen as shape `To`.
template <ShapeType To, Element E, TileShape S>
requires TileShape<To> &&(num_elements<To> == num_elements<S>)
    Tile<E, To> reshape(const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
  return Tile<E, To>(detail::trace_at(where).reshape(x.value(), To::vector()));
}

/// A unit dimension inserted before axis A.
template <size_t A, Element E, TileShape S>
requires(A <= S::rank) Tile<E, insert_axis<S, A>> expand_dims(
    const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
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
    Tile<E, detail::permuted_shape<S, P...>> permute(
        const Tile<E, S>& x, std::source_location where = std::source_location::current()) {
  return Tile<E, detail::permuted_shape<S, P...>>(
      detail::trace_at(where).permute(x.value(), {static_cast<int64_t>(P)...}));
}

namespace detail {
template <size_t A, class SA, class SB>
constexpr auto concatenated_dims() {
  std::array<int64_t, SA::rank> out = SA::dims;
  out[A] = SA::dims[A] + SB::dims[A];
  return out;
}
template <size_t A, class SA, class SB>
constexpr bool concatenable() {
  if (SA::rank != SB::rank || A >= SA::rank) return false;
  for (size_t i = 0; i < SA::rank; ++i)
    if (i != A && SA::dims[i] != SB::dims[i]) return false;
  return true;
}
template <size_t A, class SA, class SB>
using cat_shape = typename shape_from_array<concatenated_dims<A, SA, SB>()>::type;
}  // namespace detail

/// a and b joined along axis A; all other extents agree, and the joined extent is a power of two.
template <size_t A, Element E, TileShape SA, TileShape SB>
requires(detail::concatenable<A, SA, SB>() && TileShape<detail::cat_shape<A, SA, SB>>)
    Tile<E, detail::cat_shape<A, SA, SB>> cat(const Tile<E, SA>& a, const Tile<E, SB>& b,
                                              std::source_location where = std::source_location::current()) {
  using R = detail::cat_shape<A, SA, SB>;
  return Tile<E, R>(
      detail::trace_at(where).create_value(ir::Opcode::cat, tile_ir_type<E, R>(), {a.value(), b.value()},
                                           {{"dim", ir::Attribute::i32(static_cast<int64_t>(A))}}));
}

namespace detail {
template <class R, class S>
constexpr bool divides() {
  if (R::rank != S::rank) return false;
  for (size_t i = 0; i < R::rank; ++i)
    if (S::dims[i] % R::dims[i] != 0) return false;
  return true;
}
}  // namespace detail

/// Sub-tile number `index` (in units of R, one index per dimension) of x; R's extents divide x's.
template <ShapeType R, Element E, TileShape S>
requires TileShape<R> &&(detail::divides<R, S>())
    Tile<E, R> extract(const Tile<E, S>& x, std::array<Int, S::rank> index,
                       std::source_location where = std::source_location::current()) {
  std::vector<ir::Value*> indices;  // one variadic operand group: the source, then all the indices
  for (const Int& i : index) indices.push_back(i.value());
  return Tile<E, R>(
      detail::trace_at(where)
          .create(ir::Opcode::extract, {tile_ir_type<E, R>()}, {{x.value()}, std::move(indices)})
          .result(0));
}

/// Swaps the two dimensions of a 2-D tile.
template <Element E, int64_t M, int64_t N>
Tile<E, Shape<N, M>> transpose(const Tile<E, Shape<M, N>>& x,
                               std::source_location where = std::source_location::current()) {
  return permute<1, 0>(x, where);
}

}  // namespace cutile
