// Axis orders: which tensor dimension each tile dimension walks. `Order<1, 0>` makes tile dim 0 run along
// tensor dim 1 and tile dim 1 along tensor dim 0 — a transposed load or store without a permute, lowered
// to the partition view's dim_map (cuTile Python's `order=`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cutile {

template <int... P>
struct Order {
  static constexpr size_t rank = sizeof...(P);
  static constexpr std::array<int32_t, rank> dims = {P...};
  static std::vector<int32_t> vector() { return {P...}; }
  static constexpr bool is_identity = [] {
    for (size_t i = 0; i < rank; ++i)
      if (dims[i] != static_cast<int32_t>(i)) return false;
    return true;
  }();
};

/// The value form, for calls: `x.load(cutile::tile<TN, TM>, cutile::order<1, 0>, {j, i})`.
template <int... P>
inline constexpr Order<P...> order{};

namespace detail {
template <class T>
inline constexpr bool is_order = false;
template <int... P>
inline constexpr bool is_order<Order<P...>> = true;

template <size_t RANK, class Seq = std::make_index_sequence<RANK>>
struct identity_order_of;
template <size_t RANK, size_t... I>
struct identity_order_of<RANK, std::index_sequence<I...>> {
  using type = Order<static_cast<int>(I)...>;
};
}  // namespace detail

/// An Order of RANK dims that names each of 0 .. RANK-1 once.
template <class O, size_t RANK>
concept PermutationOf = detail::is_order<O> && O::rank == RANK && [] {
  std::array<bool, RANK> seen{};
  for (int32_t d : O::dims) {
    if (d < 0 || d >= static_cast<int32_t>(RANK) || seen[static_cast<size_t>(d)]) return false;
    seen[static_cast<size_t>(d)] = true;
  }
  return true;
}();

/// Order<0, 1, ..., RANK-1>: tile dims walk tensor dims in order.
template <size_t RANK>
using identity_order = typename detail::identity_order_of<RANK>::type;

}  // namespace cutile
