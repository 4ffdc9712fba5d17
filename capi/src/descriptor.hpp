// The checks of the C ABI's tensor descriptors themselves, before an op's description checks what they
// describe: null pointers, descriptor fields, devices.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cutile/host/dims.hpp"
#include "cutile/op/run.hpp"
#include "cutile_cpp/kernels.h"

namespace cutile::capi {

/// One tensor argument as the op declares it.
struct TensorParam {
  std::string_view name;
  const cutile_cpp_tensor* descriptor;
  bool written;
  bool optional;         ///< a null descriptor is an absent argument, not an error
  int64_t element = -1;  ///< its index in a list argument; -1 for a single tensor
};

static_assert(CUTILE_CPP_MAX_DIMS <= Dims::kCapacity);

/// A descriptor that passed the field checks, copied out of the caller's memory.
struct CheckedTensor {
  std::string_view name;
  int64_t element = -1;  ///< its index in a list argument; -1 for a single tensor
  bool present = true;   ///< false: an absent optional argument, nothing else is set
  bool written = false;
  cutile_cpp_dtype dtype = CUTILE_CPP_F32;
  void* data = nullptr;
  Dims shape, strides;  // inline: a call checks every descriptor, and allocations cost more than checks
  cutile_cpp_device_type device_type = CUTILE_CPP_DEVICE_CUDA;
  int32_t device_id = 0;

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numel() const;
  /// "x (bf16[4, 8] on cuda:0)", "xs[2] (bf16[4, 8] on cuda:0)"
  std::string describe() const;
  /// What the op description's checks read.
  op::TensorFacts facts() const;
};

/// "f32", "bf16", ...; "dtype code N" for a code outside cutile_cpp_dtype.
std::string dtype_name(int32_t dtype);
int64_t element_size(cutile_cpp_dtype dtype);

/// Null pointers (NULL_POINTER), each descriptor's fields (INVALID_DESCRIPTOR), then devices: every
/// descriptor on one device, CUDA ones on `device_id` when it is given (DEVICE_MISMATCH); a negative
/// `device_id` is an INVALID_ARGUMENT. Without memory (shapes only), data pointers are not looked at.
std::vector<CheckedTensor> check_descriptors(std::span<const TensorParam> params, std::optional<int32_t> device_id,
                                             bool with_memory = true);

}  // namespace cutile::capi
