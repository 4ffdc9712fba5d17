// DLPack interop for C++ users: a DLTensor as a C ABI descriptor or a borrowed cutile tensor, and a cutile
// tensor exported as a DLManagedTensor. Header-only; needs <dlpack/dlpack.h> (Debian libdlpack-dev).
// Element types: f32, f16, bf16, i32, i64 and u8 (DLPack 0.6 has no bool or float8 codes).
#pragma once

#include <dlpack/dlpack.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cutile/error.hpp"
#include "cutile/host/tensor.hpp"
#include "cutile_cpp/kernels.h"

namespace cutile::dlpack {

/// The descriptor of `t` for the C ABI: shape, strides (row-major when DLPack gives none), data moved by
/// byte_offset. A cutile::UserError for devices other than CPU and CUDA, more than CUTILE_CPP_MAX_DIMS
/// dims, vector lanes, or an element type without a cutile_cpp_dtype code.
inline cutile_cpp_tensor to_descriptor(const DLTensor& t) {
  cutile_cpp_tensor d;
  std::memset(&d, 0, sizeof d);
  if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDA)
    throw UserError("DLPack device type " + std::to_string(t.device.device_type) + " is neither kDLCPU nor kDLCUDA");
  if (t.ndim < 0 || t.ndim > CUTILE_CPP_MAX_DIMS)
    throw UserError("DLPack tensor of " + std::to_string(t.ndim) + " dims: at most " + std::to_string(CUTILE_CPP_MAX_DIMS));
  const DLDataType type = t.dtype;
  const auto is = [&](int code, int bits) { return type.code == code && type.bits == bits && type.lanes == 1; };
  if (is(kDLFloat, 32)) d.dtype = CUTILE_CPP_F32;
  else if (is(kDLFloat, 16)) d.dtype = CUTILE_CPP_F16;
  else if (is(kDLBfloat, 16)) d.dtype = CUTILE_CPP_BF16;
  else if (is(kDLInt, 32)) d.dtype = CUTILE_CPP_I32;
  else if (is(kDLInt, 64)) d.dtype = CUTILE_CPP_I64;
  else if (is(kDLUInt, 8)) d.dtype = CUTILE_CPP_U8;
  else
    throw UserError("DLPack dtype (code " + std::to_string(type.code) + ", " + std::to_string(type.bits) + " bits, " +
                    std::to_string(type.lanes) + " lanes) has no cutile_cpp dtype");
  d.data = static_cast<char*>(t.data) + t.byte_offset;
  d.ndim = t.ndim;
  int64_t step = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    d.shape[i] = t.shape[i];
    d.strides[i] = t.strides ? t.strides[i] : step;
    step *= t.shape[i] > 0 ? t.shape[i] : 1;
  }
  d.device_type = t.device.device_type == kDLCPU ? CUTILE_CPP_DEVICE_CPU : CUTILE_CPP_DEVICE_CUDA;
  d.device_id = t.device.device_id;
  return d;
}

/// A cutile tensor over the memory of a CUDA DLTensor, borrowed as Tensor<E>::borrow does: the caller
/// keeps the DLPack producer's tensor alive while cutile uses it.
inline AnyTensor from_dlpack(const DLTensor& t) {
  const cutile_cpp_tensor d = to_descriptor(t);
  if (d.device_type != CUTILE_CPP_DEVICE_CUDA) throw UserError("from_dlpack: cutile tensors live on CUDA devices");
  static constexpr struct { ir::ElementType element; int64_t size; } kinds[] = {
      {ir::ElementType::f32, 4}, {ir::ElementType::f16, 2}, {ir::ElementType::bf16, 2}, {ir::ElementType::i32, 4},
      {ir::ElementType::i64, 8}, {}, {}, {}, {ir::ElementType::i8, 1}};
  return AnyTensor::borrow(kinds[d.dtype].element, kinds[d.dtype].size, d.data, {d.shape, d.shape + d.ndim},
                           {d.strides, d.strides + d.ndim}, Device(d.device_id));
}

/// `tensor` as a DLManagedTensor that holds a handle on it (and so its storage) until the consumer calls
/// its deleter. A cutile::UserError for meta tensors and element types DLPack 0.6 cannot name.
inline DLManagedTensor* to_dlpack(const AnyTensor& tensor) {
  struct Owner {
    AnyTensor tensor;
    std::vector<int64_t> shape, strides;
    DLManagedTensor managed{};
  };
  DLDataType type{0, 0, 1};
  switch (tensor.element_type()) {
    case ir::ElementType::f32: type = {kDLFloat, 32, 1}; break;
    case ir::ElementType::f16: type = {kDLFloat, 16, 1}; break;
    case ir::ElementType::bf16: type = {kDLBfloat, 16, 1}; break;
    case ir::ElementType::i32: type = {kDLInt, 32, 1}; break;
    case ir::ElementType::i64: type = {kDLInt, 64, 1}; break;
    case ir::ElementType::i8: type = {kDLInt, 8, 1}; break;
    default: throw UserError("to_dlpack: DLPack 0.6 has no code for the elements of " + tensor.describe());
  }
  auto owner = std::make_unique<Owner>(Owner{tensor, tensor.shape(), tensor.strides(), {}});
  DLTensor& t = owner->managed.dl_tensor;
  t.data = tensor.data();
  t.device = {kDLCUDA, tensor.device().index()};  // a meta tensor has none: device() throws
  t.ndim = tensor.rank();
  t.dtype = type;
  t.shape = owner->shape.data();
  t.strides = owner->strides.data();
  t.byte_offset = 0;
  owner->managed.manager_ctx = owner.get();
  owner->managed.deleter = [](DLManagedTensor* self) { delete static_cast<Owner*>(self->manager_ctx); };
  return &owner.release()->managed;
}

}  // namespace cutile::dlpack
