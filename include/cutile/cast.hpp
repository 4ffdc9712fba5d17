// Element type conversions, chosen from the two types: float<->float rounds to nearest even, float->int
// truncates toward zero, int->float rounds to nearest even, ints widen with sign extension and narrow
// by truncation, anything->bool is `!= 0`.
#pragma once

#include "cutile/arith.hpp"

namespace cutile {

template <Element To, Element From, TileShape S>
Tile<To, S> cast(const Tile<From, S>& x, std::source_location where = std::source_location::current()) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else {
    ir::Builder& b = detail::trace_at(where);
    constexpr ir::ElementType to = ir_element<To>;
    if constexpr (std::is_same_v<To, bool>) {
      return x != detail::splat<From, S>(0.0);
    } else if constexpr (FloatElement<From> && FloatElement<To>) {
      return Tile<To, S>(b.ftof(x.value(), to));
    } else if constexpr (FloatElement<From>) {
      return Tile<To, S>(b.ftoi(x.value(), to));
    } else if constexpr (FloatElement<To>) {
      return Tile<To, S>(b.itof(x.value(), to, std::is_same_v<From, bool> ? ir::Signedness::unsigned_ : ir::Signedness::signed_));
    } else if constexpr (std::is_same_v<From, bool>) {
      return Tile<To, S>(b.exti(x.value(), to, ir::Signedness::unsigned_));
    } else if constexpr (sizeof(To) > sizeof(From)) {
      return Tile<To, S>(b.exti(x.value(), to, ir::Signedness::signed_));
    } else {
      return Tile<To, S>(b.trunci(x.value(), to));
    }
  }
}

}  // namespace cutile
