// Tiles: the values a kernel body computes with. During a trace a Tile stands for an SSA value of the
// Tile IR being built; its element type and shape are template arguments, so mismatches are compile
// errors. Scalars are rank-0 tiles.
#pragma once

#include <source_location>

#include "cutile/detail/trace_context.hpp"
#include "cutile/element.hpp"
#include "cutile/shape.hpp"

namespace cutile {

template <Element E, TileShape S>
class Tile {
 public:
  using element_type = E;
  using shape_type = S;
  static constexpr size_t rank = S::rank;

  explicit Tile(ir::Value* value) : value_(value) {}
  ir::Value* value() const { return value_; }

  /// A tile is a symbolic value while the kernel is traced: branching on it in C++ is meaningless, so it
  /// must not compile. Runtime control flow is cutile::cond / cutile::loop.
  explicit operator bool() const = delete;

 private:
  ir::Value* value_;
};

using Int = Tile<int32_t, Shape<>>;
using Index = Int;
using Float = Tile<float, Shape<>>;
using Bool = Tile<bool, Shape<>>;

template <class T>
inline constexpr bool is_tile = false;
template <Element E, TileShape S>
inline constexpr bool is_tile<Tile<E, S>> = true;
template <class T>
concept TileType = is_tile<T>;

/// The Tile IR type of Tile<E, S>.
template <Element E, TileShape S>
ir::Type tile_ir_type() {
  return ir::Type::tile(S::vector(), ir::Type::element(ir_element<E>));
}

/// A scalar constant of element type E.
template <Element E>
Tile<E, Shape<>> scalar(double value, std::source_location where = std::source_location::current()) {
  ir::Builder& b = detail::trace_at(where);
  if constexpr (element_traits<E>::is_float)
    return Tile<E, Shape<>>(b.constant_float(ir_element<E>, value));
  else
    return Tile<E, Shape<>>(b.constant_int(ir_element<E>, static_cast<int64_t>(value)));
}

/// Broadcasts `x` to shape `To` (reshape to the target rank, then broadcast), as numpy does.
template <ShapeType To, Element E, TileShape S>
  requires Broadcastable<S, To> && std::is_same_v<broadcast_shape<S, To>, To>
Tile<E, To> broadcast_to(const Tile<E, S>& x) {
  if constexpr (std::is_same_v<S, To>) {
    return x;
  } else {
    ir::Builder& b = detail::TraceContext::current(std::source_location::current()).builder();
    std::vector<int64_t> aligned(To::rank - S::rank, 1);
    for (int64_t d : S::dims) aligned.push_back(d);
    ir::Value* v = x.value();
    if (aligned != S::vector()) v = b.reshape(v, aligned);
    return Tile<E, To>(b.broadcast(v, To::vector()));
  }
}

}  // namespace cutile
