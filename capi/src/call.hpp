// The one path of every op call across the C boundary: the descriptors' own checks, the op description's
// checks, then placement on the caller's device and stream and the op's launcher.
#pragma once

#include <cstdint>
#include <span>

#include "cutile/op/registry.hpp"
#include "cutile_cpp/kernels.h"

namespace cutile::capi {

/// Runs `spec` (null: the description is missing, INTERNAL) for the C function `function`, whose name
/// starts every message; `tensors` and `scalars` in the spec's order. A list's entry in `tensors` is its
/// array of descriptors, as many as its entry in `counts` says (by tensor; `counts` is read at lists only,
/// and may be empty for an op without lists).
int32_t call(const op::OpSpec* spec, const char* function, std::span<const cutile_cpp_tensor* const> tensors,
             std::span<const int64_t> counts, std::span<const cutile_cpp_scalar> scalars, int32_t device_id,
             void* stream) noexcept;

}  // namespace cutile::capi
