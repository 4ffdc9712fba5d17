// Matrix multiply-accumulate: mmaf (f16, bf16, tf32, f32, f64, f8 inputs) and mmai (i8 -> i32), 2-D or
// batched 3-D.
#pragma once

#include "cutile/ir/operation.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

/// acc + lhs @ rhs. Float products are exact and summed in double over K, then rounded once into the
/// accumulator type: at least as exact as the tensor cores, whose summation order is unspecified.
Array eval_mma(const ir::Operation& op, const Array& lhs, const Array& rhs, const Array& acc);

}  // namespace cutile::interp
