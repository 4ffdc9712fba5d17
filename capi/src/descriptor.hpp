// The checks every op makes on its tensor descriptors before anything runs, in the order the header
// promises: null pointers, descriptor fields, devices, dtypes, ranks, shapes, aliasing.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "cutile/host/dims.hpp"
#include "cutile/ir/type.hpp"
#include "cutile_cpp/kernels.h"

namespace cutile::capi {

/// One tensor argument as the op declares it.
struct TensorParam {
  const char* name;
  const cutile_cpp_tensor* descriptor;
  bool output;
};

static_assert(CUTILE_CPP_MAX_DIMS <= Dims::kCapacity);

/// A descriptor that passed the field checks, copied out of the caller's memory.
struct CheckedTensor {
  std::string name;
  bool output = false;
  cutile_cpp_dtype dtype = CUTILE_CPP_F32;
  void* data = nullptr;
  Dims shape, strides;  // inline: a call checks every descriptor, and allocations cost more than checks
  cutile_cpp_device_type device_type = CUTILE_CPP_DEVICE_CUDA;
  int32_t device_id = 0;

  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numel() const;
  /// "x (bf16[4, 8] on cuda:0)"
  std::string describe() const;
};

/// "f32", "bf16", ...; "dtype code N" for a code outside cutile_cpp_dtype.
std::string dtype_name(int32_t dtype);
ir::ElementType element_type(cutile_cpp_dtype dtype);
int64_t element_size(cutile_cpp_dtype dtype);

/// Null pointers (NULL_POINTER), each descriptor's fields (INVALID_DESCRIPTOR), then devices: every
/// descriptor on one device, CUDA ones on `device_id` (DEVICE_MISMATCH); a negative `device_id` is an
/// INVALID_ARGUMENT.
std::vector<CheckedTensor> check_descriptors(std::initializer_list<TensorParam> params, int32_t device_id);

/// Each tensor's dtype is one of `supported` (UNSUPPORTED_DTYPE) and all share it (DTYPE_MISMATCH).
void check_dtypes(std::span<const CheckedTensor> tensors, std::initializer_list<cutile_cpp_dtype> supported);
/// RANK_MISMATCH unless `tensor` has `rank` dims.
void check_rank(const CheckedTensor& tensor, int rank);
/// SHAPE_MISMATCH unless `a` and `b` have the same shape.
void check_same_shape(const CheckedTensor& a, const CheckedTensor& b);
/// UNSUPPORTED_SHAPE unless every extent and stride fits the kernels' i32 indices.
void check_index_range(std::span<const CheckedTensor> tensors);
/// ALIASING if an output's memory overlaps another argument's or an output's elements overlap each other.
void check_no_aliasing(std::span<const CheckedTensor> tensors);

}  // namespace cutile::capi
