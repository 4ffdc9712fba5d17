#include "descriptor.hpp"

#include <algorithm>
#include <cstdint>

#include "cutile/error.hpp"
#include "cutile/host/layout.hpp"
#include "status.hpp"

namespace cutile::capi {
namespace {

bool known_dtype(int32_t dtype) { return dtype >= CUTILE_CPP_F32 && dtype <= CUTILE_CPP_U8; }

std::string device_text(cutile_cpp_device_type type, int32_t id) {
  return type == CUTILE_CPP_DEVICE_CPU ? std::string("cpu") : "cuda:" + std::to_string(id);
}

CheckedTensor check_fields(const TensorParam& param) {
  const cutile_cpp_tensor& d = *param.descriptor;
  auto invalid = [&](const std::string& what) {
    return AbiError(CUTILE_CPP_ERROR_INVALID_DESCRIPTOR, std::string(param.name) + ": " + what);
  };
  if (d.ndim < 0 || d.ndim > CUTILE_CPP_MAX_DIMS)
    throw invalid("ndim " + std::to_string(d.ndim) + " is outside 0.." + std::to_string(CUTILE_CPP_MAX_DIMS));
  if (!known_dtype(d.dtype)) throw invalid("dtype code " + std::to_string(d.dtype) + " is not a cutile_cpp_dtype");
  if (d.device_type != CUTILE_CPP_DEVICE_CPU && d.device_type != CUTILE_CPP_DEVICE_CUDA)
    throw invalid("device type " + std::to_string(d.device_type) + " is neither CPU (1) nor CUDA (2)");
  if (d.device_type == CUTILE_CPP_DEVICE_CUDA && d.device_id < 0)
    throw invalid("CUDA device id " + std::to_string(d.device_id) + " is negative");
  if (d.device_type == CUTILE_CPP_DEVICE_CPU && d.device_id != 0)
    throw invalid("CPU device id " + std::to_string(d.device_id) + " is not 0");
  CheckedTensor t;
  t.name = param.name;
  t.output = param.output;
  t.dtype = static_cast<cutile_cpp_dtype>(d.dtype);
  t.data = d.data;
  t.shape = Dims(std::span<const int64_t>(d.shape, static_cast<size_t>(d.ndim)));
  t.strides = Dims(std::span<const int64_t>(d.strides, static_cast<size_t>(d.ndim)));
  t.device_type = static_cast<cutile_cpp_device_type>(d.device_type);
  t.device_id = d.device_id;
  for (int i = 0; i < d.ndim; ++i) {
    if (t.shape[i] < 0) throw invalid("extent " + std::to_string(t.shape[i]) + " of dim " + std::to_string(i) + " is negative");
    if (t.strides[i] < 0)
      throw invalid("stride " + std::to_string(t.strides[i]) + " of dim " + std::to_string(i) + " is negative");
  }
  try {
    check_layout(t.shape, t.strides, element_size(t.dtype), "the layout");
  } catch (const Error& e) {
    throw invalid(e.message());
  }
  if (t.numel() > 0) {
    if (!t.data)
      throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER,
                     t.name + ": data is null but the tensor has " + std::to_string(t.numel()) + " elements");
    if (reinterpret_cast<uintptr_t>(t.data) % static_cast<uintptr_t>(element_size(t.dtype)) != 0)
      throw invalid("data is not aligned to its " + std::to_string(element_size(t.dtype)) + "-byte " +
                    dtype_name(t.dtype) + " elements");
  }
  return t;
}

// [first, last) bytes the layout can reach; empty for a tensor without elements.
std::pair<uintptr_t, uintptr_t> byte_range(const CheckedTensor& t) {
  const auto first = reinterpret_cast<uintptr_t>(t.data);
  const int64_t bytes = addressable_elements(t.shape, t.strides) * element_size(t.dtype);
  return {first, first + static_cast<uintptr_t>(bytes)};
}

// Whether two distinct indices of `t` reach one element: with axes sorted by stride, each stride must
// step past everything the smaller-stride axes reach.
bool self_overlapping(const CheckedTensor& t) {
  std::vector<size_t> axes;
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] > 1) axes.push_back(i);
  std::sort(axes.begin(), axes.end(), [&](size_t a, size_t b) { return t.strides[a] < t.strides[b]; });
  int64_t reach = 1;  // elements spanned by the axes so far, from the first one
  for (size_t axis : axes) {
    if (t.strides[axis] < reach) return true;
    reach += (t.shape[axis] - 1) * t.strides[axis];
  }
  return false;
}

}  // namespace

int64_t CheckedTensor::numel() const { return cutile::numel(shape); }

std::string CheckedTensor::describe() const {
  return name + " (" + dtype_name(dtype) + format_extents(shape) + " on " + device_text(device_type, device_id) + ")";
}

std::string dtype_name(int32_t dtype) {
  switch (dtype) {
    case CUTILE_CPP_F32: return "f32";
    case CUTILE_CPP_F16: return "f16";
    case CUTILE_CPP_BF16: return "bf16";
    case CUTILE_CPP_I32: return "i32";
    case CUTILE_CPP_I64: return "i64";
    case CUTILE_CPP_F8E4M3FN: return "f8e4m3fn";
    case CUTILE_CPP_F8E5M2: return "f8e5m2";
    case CUTILE_CPP_BOOL: return "bool";
    case CUTILE_CPP_U8: return "u8";
  }
  return "dtype code " + std::to_string(dtype);
}

ir::ElementType element_type(cutile_cpp_dtype dtype) {
  switch (dtype) {
    case CUTILE_CPP_F32: return ir::ElementType::f32;
    case CUTILE_CPP_F16: return ir::ElementType::f16;
    case CUTILE_CPP_BF16: return ir::ElementType::bf16;
    case CUTILE_CPP_I32: return ir::ElementType::i32;
    case CUTILE_CPP_I64: return ir::ElementType::i64;
    case CUTILE_CPP_F8E4M3FN: return ir::ElementType::f8e4m3fn;
    case CUTILE_CPP_F8E5M2: return ir::ElementType::f8e5m2;
    case CUTILE_CPP_BOOL: return ir::ElementType::i1;
    case CUTILE_CPP_U8: return ir::ElementType::i8;  // the same bits; kernels decide the signedness
  }
  throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "element_type of unchecked dtype code " + std::to_string(dtype));
}

int64_t element_size(cutile_cpp_dtype dtype) {
  switch (dtype) {
    case CUTILE_CPP_F32: case CUTILE_CPP_I32: return 4;
    case CUTILE_CPP_F16: case CUTILE_CPP_BF16: return 2;
    case CUTILE_CPP_I64: return 8;
    case CUTILE_CPP_F8E4M3FN: case CUTILE_CPP_F8E5M2: case CUTILE_CPP_BOOL: case CUTILE_CPP_U8: return 1;
  }
  throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "element_size of unchecked dtype code " + std::to_string(dtype));
}

std::vector<CheckedTensor> check_descriptors(std::initializer_list<TensorParam> params, int32_t device_id) {
  for (const TensorParam& p : params)
    if (!p.descriptor) throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER, std::string(p.name) + ": the descriptor is null");
  std::vector<CheckedTensor> tensors;
  tensors.reserve(params.size());
  for (const TensorParam& p : params) tensors.push_back(check_fields(p));
  if (device_id < 0)
    throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "device_id " + std::to_string(device_id) + " is negative");
  for (const CheckedTensor& t : tensors) {
    if (t.device_type != tensors.front().device_type)
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_MISMATCH, t.describe() + " and " + tensors.front().describe() +
                                                           " are on different devices");
    if (t.device_type == CUTILE_CPP_DEVICE_CUDA && t.device_id != device_id)
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_MISMATCH,
                     t.describe() + " is not on the call's device cuda:" + std::to_string(device_id));
  }
  return tensors;
}

void check_dtypes(std::span<const CheckedTensor> tensors, std::initializer_list<cutile_cpp_dtype> supported) {
  for (const CheckedTensor& t : tensors) {
    if (std::find(supported.begin(), supported.end(), t.dtype) != supported.end()) continue;
    std::string list;
    for (cutile_cpp_dtype d : supported) list += (list.empty() ? "" : ", ") + dtype_name(d);
    throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE, t.describe() + ": the op supports " + list);
  }
  for (const CheckedTensor& t : tensors)
    if (t.dtype != tensors.front().dtype)
      throw AbiError(CUTILE_CPP_ERROR_DTYPE_MISMATCH,
                     t.describe() + " and " + tensors.front().describe() + " must have the same dtype");
}

void check_rank(const CheckedTensor& tensor, int rank) {
  if (tensor.rank() != rank)
    throw AbiError(CUTILE_CPP_ERROR_RANK_MISMATCH, tensor.describe() + ": expected " + std::to_string(rank) +
                                                       " dims, got " + std::to_string(tensor.rank()));
}

void check_same_shape(const CheckedTensor& a, const CheckedTensor& b) {
  if (a.shape != b.shape)
    throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH, a.describe() + " and " + b.describe() + " must have the same shape");
}

void check_index_range(std::span<const CheckedTensor> tensors) {
  for (const CheckedTensor& t : tensors)
    for (int i = 0; i < t.rank(); ++i)
      if (t.shape[i] > INT32_MAX || t.strides[i] > INT32_MAX)
        throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                       t.describe() + ": extent " + std::to_string(t.shape[i]) + " or stride " + std::to_string(t.strides[i]) +
                           " of dim " + std::to_string(i) + " exceeds the kernels' i32 indices");
}

void check_no_aliasing(std::span<const CheckedTensor> tensors) {
  for (const CheckedTensor& out : tensors) {
    if (!out.output || out.numel() == 0) continue;
    if (self_overlapping(out))
      throw AbiError(CUTILE_CPP_ERROR_ALIASING, out.describe() + ": an output's elements overlap each other (strides " +
                                                    format_extents(out.strides) + ")");
    const auto [out_first, out_last] = byte_range(out);
    for (const CheckedTensor& other : tensors) {
      if (&other == &out || other.numel() == 0) continue;
      const auto [first, last] = byte_range(other);
      if (out_first < last && first < out_last)
        throw AbiError(CUTILE_CPP_ERROR_ALIASING, "output " + out.describe() + " overlaps " + other.describe() +
                                                      " in memory: an output may not alias another argument");
    }
  }
}

}  // namespace cutile::capi
