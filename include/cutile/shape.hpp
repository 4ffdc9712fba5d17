// Compile-time shapes. Tile shapes are template arguments, so g++ checks them: broadcasting, reductions
// and reshapes compute their result shapes as types, and an illegal combination does not compile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cutile {

/// A dimension known only at run time (tensor parameters only; tiles are always static).
inline constexpr int64_t dyn = -1;

template <int64_t... Dims>
struct Shape {
  static constexpr size_t rank = sizeof...(Dims);
  static constexpr std::array<int64_t, rank> dims = {Dims...};
  static constexpr bool is_static = ((Dims != dyn) && ...);
  static std::vector<int64_t> vector() { return {Dims...}; }
};

namespace detail {

template <class T>
struct is_shape : std::false_type {};
template <int64_t... Dims>
struct is_shape<Shape<Dims...>> : std::true_type {};

template <auto Dims, class Seq = std::make_index_sequence<Dims.size()>>
struct shape_from_array;
template <auto Dims, size_t... I>
struct shape_from_array<Dims, std::index_sequence<I...>> {
  using type = Shape<Dims[I]...>;
};

constexpr bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

template <class A, class B>
constexpr auto broadcast_dims() {
  constexpr size_t rank = A::rank > B::rank ? A::rank : B::rank;
  std::array<int64_t, rank> out{};
  for (size_t i = 0; i < rank; ++i) {
    const int64_t a = i < rank - A::rank ? 1 : A::dims[i - (rank - A::rank)];
    const int64_t b = i < rank - B::rank ? 1 : B::dims[i - (rank - B::rank)];
    out[i] = a == b ? a : a == 1 ? b : b == 1 ? a : -2;  // -2: not broadcastable
  }
  return out;
}

template <class S, size_t Axis>
constexpr auto without_axis() {
  std::array<int64_t, S::rank - 1> out{};
  for (size_t i = 0, j = 0; i < S::rank; ++i)
    if (i != Axis) out[j++] = S::dims[i];
  return out;
}

template <class S, size_t Axis>
constexpr auto with_unit_axis() {
  std::array<int64_t, S::rank> out = S::dims;
  out[Axis] = 1;
  return out;
}

template <class S, size_t Axis>
constexpr auto with_inserted_axis() {
  std::array<int64_t, S::rank + 1> out{};
  for (size_t i = 0, j = 0; i <= S::rank; ++i) out[i] = i == Axis ? 1 : S::dims[j++];
  return out;
}

}  // namespace detail

template <class S>
concept ShapeType = detail::is_shape<S>::value;

/// Number of elements of a static shape.
template <ShapeType S>
inline constexpr int64_t num_elements = [] {
  int64_t n = 1;
  for (int64_t d : S::dims) n *= d;
  return n;
}();

/// A shape a tile may have: every dimension a positive power of two, at most 2^24 elements.
template <class S>
concept TileShape = ShapeType<S> && S::is_static && [] {
  for (int64_t d : S::dims)
    if (!detail::is_power_of_two(d)) return false;
  return num_elements<S> <= (int64_t{1} << 24);
}();

/// Two shapes broadcast when, right-aligned, each pair of dimensions is equal or one of them is 1.
template <class A, class B>
concept Broadcastable = ShapeType<A> && ShapeType<B> && [] {
  for (int64_t d : detail::broadcast_dims<A, B>())
    if (d == -2) return false;
  return true;
}();

template <class A, class B>
  requires Broadcastable<A, B>
using broadcast_shape = typename detail::shape_from_array<detail::broadcast_dims<A, B>()>::type;

/// The shape with `Axis` removed (a reduction without keepdims).
template <ShapeType S, size_t Axis>
  requires(Axis < S::rank)
using drop_axis = typename detail::shape_from_array<detail::without_axis<S, Axis>()>::type;

/// The shape with `Axis` set to 1 (a reduction with keepdims).
template <ShapeType S, size_t Axis>
  requires(Axis < S::rank)
using keep_axis = typename detail::shape_from_array<detail::with_unit_axis<S, Axis>()>::type;

/// The shape with a unit dimension inserted before `Axis`.
template <ShapeType S, size_t Axis>
  requires(Axis <= S::rank)
using insert_axis = typename detail::shape_from_array<detail::with_inserted_axis<S, Axis>()>::type;

}  // namespace cutile
