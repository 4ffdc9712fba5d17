#include "placement.hpp"

#include "cutile/error.hpp"
#include "status.hpp"

namespace cutile::capi {

ContextRestore ContextRestore::of_this_thread() {
  ContextRestore restore;
  if (runtime::driver_available() &&
      runtime::driver_api().cuCtxGetCurrent(&restore.saved_) == runtime::kCudaSuccess)
    restore.active_ = true;
  return restore;
}

ContextRestore::~ContextRestore() {
  if (!active_) return;
  // A destructor cannot report a failure; the worst outcome is the op's device staying current.
  runtime::CUcontext current = nullptr;
  const runtime::DriverApi& api = runtime::driver_api();
  if (api.cuCtxGetCurrent(&current) == runtime::kCudaSuccess && current != saved_)
    api.cuCtxSetCurrent(saved_);
}

Placement place(std::span<const CheckedTensor> tensors, int32_t device_id, void* stream) {
  // check_descriptors made every tensor's device type the same.
  if (tensors.front().device_type == CUTILE_CPP_DEVICE_CPU) {
    if (stream)
      throw AbiError(CUTILE_CPP_ERROR_INVALID_STREAM,
                     "host tensors run on the CPU interpreter, synchronously: pass a null stream");
    const Device cpu = Device::cpu();
    return {ContextRestore(), cpu, Stream::default_stream(cpu)};
  }
  ContextRestore restore = ContextRestore::of_this_thread();
  std::optional<Device> device;
  try {
    device.emplace(device_id);  // loads the driver, then makes the device's context current
  } catch (const Error& e) {
    throw AbiError(CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE,
                   "cuda:" + std::to_string(device_id) + " is unavailable: " + e.message());
  }
  try {
    return {std::move(restore), *device, Stream::borrow(stream, *device)};
  } catch (const UserError& e) {
    throw AbiError(CUTILE_CPP_ERROR_INVALID_STREAM, e.message());
  }
}

AnyTensor lend(const CheckedTensor& tensor, const Placement& placement) {
  try {
    return AnyTensor::lend(op::element_type(static_cast<op::Dtype>(tensor.dtype)), element_size(tensor.dtype), tensor.data,
                           {tensor.shape.begin(), tensor.shape.end()},
                           {tensor.strides.begin(), tensor.strides.end()}, placement.device);
  } catch (const UserError& e) {
    throw AbiError(CUTILE_CPP_ERROR_INVALID_POINTER, tensor.describe() + ": " + e.message());
  }
}

}  // namespace cutile::capi
