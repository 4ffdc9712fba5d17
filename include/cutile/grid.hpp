// Where a tile block is in the launch grid.
#pragma once

#include "cutile/tile.hpp"

namespace cutile {

/// This tile block's index along grid axis A (0, 1 or 2).
template <size_t A>
  requires(A < 3)
Int block_id(std::source_location where = std::source_location::current()) {
  return Int(detail::TraceContext::current(where).block_ids(where)[A]);
}

/// The number of tile blocks along grid axis A.
template <size_t A>
  requires(A < 3)
Int num_blocks(std::source_location where = std::source_location::current()) {
  return Int(detail::trace_at(where).num_tile_blocks()[A]);
}

/// ceil(a / b) for non-negative a and positive b.
inline Int cdiv(const Int& a, int32_t b, std::source_location where = std::source_location::current()) {
  if (b == 1) return a;  // no division for a dimension of unit tiles
  ir::Builder& builder = detail::trace_at(where);
  ir::Value* divisor = builder.constant_int(ir::ElementType::i32, b);
  return Int(builder.binary(
      ir::Opcode::divi, a.value(), divisor,
      {{"signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)},
       {"rounding", ir::Attribute::enum_of(ir::EnumKind::rounding, ir::RoundingMode::positive_inf)}}));
}

}  // namespace cutile
