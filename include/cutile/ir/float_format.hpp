// Bit-exact conversion between double and the narrow float formats of Tile IR
// (f16, bf16, tf32, f8E4M3FN, f8E5M2, f8E8M0FNU, f4E2M1FN, f8E5M3FNU), rounding to nearest even.
#pragma once

#include <cstdint>

#include "cutile/ir/type.hpp"

namespace cutile::ir {

/// Encodes `value` in the format of float element type `e`, rounding to nearest even. Values past the
/// largest finite number become infinity where the format has one, NaN otherwise (APFloat semantics).
uint64_t float_to_bits(ElementType e, double value);
/// Decodes a bit pattern of float element type `e` (exact: every such value is a double).
double bits_to_float(ElementType e, uint64_t bits);

}  // namespace cutile::ir
