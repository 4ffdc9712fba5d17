// Reinterpreting the bits of a tile's elements as another element type of the same width, as cuTile
// Python's ct.bitcast: f32 <-> i32, f16 / bf16 <-> i16, f64 <-> i64, f8 <-> i8. Nothing is converted or
// rounded; NaN payloads and signed zeros pass through unchanged.
#pragma once

#include "cutile/arith.hpp"

namespace cutile {

/// Element types whose bits a bitcast may reinterpret: every storage type but bool (1 bit in Tile IR)
/// and tf32 (an mma operand format, not a storage type).
template <class E>
concept BitcastElement = Element<E> && !std::is_same_v<E, bool> && !std::is_same_v<E, tf32>;

/// `To` and `From` have the same width in bits.
template <class To, class From>
concept SameBitWidth = BitcastElement<To> && BitcastElement<From> && sizeof(To) == sizeof(From);

/// `bitcast<int32_t>(x)` for a float tile x: the IEEE bits of each element as an integer.
template <Element To, Element From, TileShape S>
requires SameBitWidth<To, From> Tile<To, S> bitcast(
    const Tile<From, S>& x, std::source_location where = std::source_location::current()) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else {
    ir::Builder& b = detail::trace_at(where);
    return Tile<To, S>(
        b.create_value(ir::Opcode::bitcast, ir::tile_type(S::vector(), ir_element<To>), {x.value()}));
  }
}

}  // namespace cutile
