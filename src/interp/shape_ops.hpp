// Ops that make or rearrange tiles without arithmetic: constant, iota, broadcast, reshape, permute,
// extract, insert, cat, pack and unpack.
#pragma once

#include <span>

#include "cutile/ir/operation.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

bool is_shape_op(ir::Opcode opcode);
Array eval_shape_op(const ir::Operation& op, std::span<const Array* const> operands);

}  // namespace cutile::interp
