// Ops that reach memory: tensor and tile views with their loads, stores and atomic reductions; pointer
// tiles with masked loads and stores; atomic read-modify-write and compare-and-swap.
#pragma once

#include <span>
#include <vector>

#include "cutile/ir/operation.hpp"
#include "interp/memory.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

/// Operands by the op table's groups (an absent optional operand is an empty group).
using OperandGroups = std::vector<std::vector<const RtValue*>>;

bool is_memory_op(ir::Opcode opcode);
/// The op's results, in order.
std::vector<RtValue> eval_memory_op(const ir::Operation& op, const OperandGroups& groups, const Memory& memory);

}  // namespace cutile::interp
