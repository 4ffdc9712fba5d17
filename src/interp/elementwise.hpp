// Elementwise ops: integer and float arithmetic, math functions, comparisons, select, conversions and
// pointer offsets. Operands have one shape, except that a one-element operand stands for every element
// (reduce and scan bodies run on whole slices with rank-0 constants).
#pragma once

#include <span>

#include "cutile/ir/operation.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

bool is_elementwise(ir::Opcode opcode);

/// Evaluates elementwise op `op` on `operands` (in operand order); the result takes the element type of the
/// op's result and the shape of the largest operand.
Array eval_elementwise(const ir::Operation& op, std::span<const Array* const> operands);

}  // namespace cutile::interp
