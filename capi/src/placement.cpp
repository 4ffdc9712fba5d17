#include "placement.hpp"

#include "cutile/error.hpp"
#include "status.hpp"

namespace cutile::capi {

Placement place(std::span<const CheckedTensor> tensors, int32_t device_id, void* stream) {
  for (const CheckedTensor& t : tensors)
    if (t.device_type == CUTILE_CPP_DEVICE_CPU)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_DEVICE,
                     t.describe() + " is in host memory: this build runs kernels on CUDA devices only");
  std::optional<Device> device;
  try {
    device.emplace(device_id);
  } catch (const Error& e) {
    throw AbiError(CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE, "cuda:" + std::to_string(device_id) + " is unavailable: " + e.message());
  }
  try {
    return {*device, Stream::borrow(stream, *device)};
  } catch (const UserError& e) {
    throw AbiError(CUTILE_CPP_ERROR_INVALID_STREAM, e.message());
  }
}

AnyTensor borrow(const CheckedTensor& tensor, const Placement& placement) {
  try {
    return AnyTensor::borrow(element_type(tensor.dtype), element_size(tensor.dtype), tensor.data, tensor.shape,
                             tensor.strides, placement.device);
  } catch (const UserError& e) {
    throw AbiError(CUTILE_CPP_ERROR_INVALID_POINTER, tensor.describe() + ": " + e.message());
  }
}

}  // namespace cutile::capi
