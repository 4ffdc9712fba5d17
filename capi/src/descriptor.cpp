#include "descriptor.hpp"

#include <algorithm>
#include <cstdint>

#include "cutile/error.hpp"
#include "cutile/host/layout.hpp"
#include "status.hpp"

namespace cutile::capi {
namespace {

bool known_dtype(int32_t dtype) { return op::is_dtype_code(dtype); }

std::string device_text(cutile_cpp_device_type type, int32_t id) {
  return type == CUTILE_CPP_DEVICE_CPU ? std::string("cpu") : "cuda:" + std::to_string(id);
}

// "x", "xs[2]"
std::string label(std::string_view name, int64_t element) {
  return std::string(name) + (element >= 0 ? "[" + std::to_string(element) + "]" : "");
}

CheckedTensor check_fields(const TensorParam& param, bool with_memory) {
  const cutile_cpp_tensor& d = *param.descriptor;
  auto invalid = [&](const std::string& what) {
    return AbiError(CUTILE_CPP_ERROR_INVALID_DESCRIPTOR, label(param.name, param.element) + ": " + what);
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
  t.element = param.element;
  t.written = param.written;
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
  if (with_memory && t.numel() > 0) {
    if (!t.data)
      throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER,
                     label(t.name, t.element) + ": data is null but the tensor has " + std::to_string(t.numel()) + " elements");
    if (reinterpret_cast<uintptr_t>(t.data) % static_cast<uintptr_t>(element_size(t.dtype)) != 0)
      throw invalid("data is not aligned to its " + std::to_string(element_size(t.dtype)) + "-byte " +
                    dtype_name(t.dtype) + " elements");
  }
  return t;
}

}  // namespace

int64_t CheckedTensor::numel() const { return cutile::numel(shape); }

std::string CheckedTensor::describe() const {
  return label(name, element) + " (" + dtype_name(dtype) + format_extents(shape) + " on " +
         device_text(device_type, device_id) + ")";
}

op::TensorFacts CheckedTensor::facts() const {
  op::TensorFacts f;
  f.name = name;
  f.element = element;
  f.dtype = static_cast<op::Dtype>(dtype);
  f.shape = shape;
  f.strides = strides;
  f.address = reinterpret_cast<uint64_t>(data);
  f.place = device_type == CUTILE_CPP_DEVICE_CPU ? op::TensorFacts::Place::cpu : op::TensorFacts::Place::cuda;
  f.device = device_id;
  return f;
}

std::string dtype_name(int32_t dtype) {
  if (op::is_dtype_code(dtype)) return std::string(op::dtype_name(static_cast<op::Dtype>(dtype)));
  return "dtype code " + std::to_string(dtype);
}

int64_t element_size(cutile_cpp_dtype dtype) { return op::dtype_size(static_cast<op::Dtype>(dtype)); }

std::vector<CheckedTensor> check_descriptors(std::span<const TensorParam> params, std::optional<int32_t> device_id,
                                             bool with_memory) {
  for (const TensorParam& p : params)
    if (!p.descriptor && !p.optional)
      throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER, std::string(p.name) + ": the descriptor is null");
  std::vector<CheckedTensor> tensors;
  tensors.reserve(params.size());
  for (const TensorParam& p : params) {
    if (p.descriptor) {
      tensors.push_back(check_fields(p, with_memory));
    } else {
      tensors.emplace_back();
      tensors.back().name = p.name;
      tensors.back().present = false;
    }
  }
  if (device_id && *device_id < 0)
    throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "device_id " + std::to_string(*device_id) + " is negative");
  const CheckedTensor* first = nullptr;
  for (const CheckedTensor& t : tensors) {
    if (!t.present) continue;
    if (!first) first = &t;
    if (t.device_type != first->device_type)
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_MISMATCH, t.describe() + " and " + first->describe() +
                                                           " are on different devices");
    if (t.device_type == CUTILE_CPP_DEVICE_CUDA && device_id && t.device_id != *device_id)
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_MISMATCH,
                     t.describe() + " is not on the call's device cuda:" + std::to_string(*device_id));
    if (t.device_type == CUTILE_CPP_DEVICE_CUDA && t.device_id != first->device_id)
      throw AbiError(CUTILE_CPP_ERROR_DEVICE_MISMATCH, t.describe() + " and " + first->describe() +
                                                           " are on different devices");
  }
  return tensors;
}

}  // namespace cutile::capi
