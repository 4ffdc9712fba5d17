// Structural equality of Tile IR modules, up to the renaming of SSA values.
#pragma once

#include <string>

#include "cutile/ir/module.hpp"

namespace cutile::ir {

/// True when `a` and `b` have the same globals, producer and functions (names, signatures, hints,
/// locations) and their bodies match op for op: opcodes, result types, attributes, operands (through the
/// value correspondence built while walking), regions and block arguments, locations.
/// Differences that bytecode cannot represent count as equal: the module name, an absent defaulted
/// attribute vs its default value, an absent `inbounds` vs all false, empty function hints vs none,
/// an i1 integer attribute vs a bool attribute, the integer type of an inline integer attribute, and a
/// splat i1 constant stored as 01 vs FF.
/// On a difference, returns false and, if `first_difference` is given, describes it naming the
/// function and the op index (pre-order, as the bytecode's debug lists count ops).
bool modules_equivalent(const Module& a, const Module& b, std::string* first_difference = nullptr);

}  // namespace cutile::ir
