#include "cutile/runtime/device.hpp"

#include <array>
#include <utility>

#include "cutile/error.hpp"

namespace cutile::runtime {
namespace {

CUdevice device_handle(int index) {
  int count = device_count();
  if (index < 0 || index >= count)
    throw UserError("no GPU with index " + std::to_string(index) + ": the driver sees " +
                    std::to_string(count));
  CUdevice handle = 0;
  check(driver_api().cuDeviceGet(&handle, index), "cuDeviceGet");
  return handle;
}

}  // namespace

int device_count() {
  int count = 0;
  check(driver_api().cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

DeviceInfo device_info(int index) {
  const DriverApi& api = driver_api();
  CUdevice handle = device_handle(index);
  DeviceInfo info;
  info.index = index;
  std::array<char, 256> name{};
  check(api.cuDeviceGetName(name.data(), static_cast<int>(name.size()), handle), "cuDeviceGetName");
  info.name = name.data();
  int major = 0, minor = 0;
  check(api.cuDeviceGetAttribute(&major, kAttributeComputeCapabilityMajor, handle), "cuDeviceGetAttribute");
  check(api.cuDeviceGetAttribute(&minor, kAttributeComputeCapabilityMinor, handle), "cuDeviceGetAttribute");
  check(api.cuDeviceGetAttribute(&info.sm_count, kAttributeMultiprocessorCount, handle),
        "cuDeviceGetAttribute");
  info.arch = "sm_" + std::to_string(major) + std::to_string(minor);
  return info;
}

Device::Device(int index) : info_(device_info(index)), handle_(device_handle(index)) {
  check(driver_api().cuDevicePrimaryCtxRetain(&context_, handle_), "cuDevicePrimaryCtxRetain");
  try {
    make_current();
  } catch (...) {
    release();
    throw;
  }
}

Device::~Device() {
  release();
}

Device::Device(Device&& other) noexcept
    : info_(std::move(other.info_)),
      handle_(other.handle_),
      context_(std::exchange(other.context_, nullptr)) {}

Device& Device::operator=(Device&& other) noexcept {
  if (this != &other) {
    release();
    info_ = std::move(other.info_);
    handle_ = other.handle_;
    context_ = std::exchange(other.context_, nullptr);
  }
  return *this;
}

void Device::release() noexcept {
  // A destructor cannot report a failed release; it only leaks a reference on the context.
  if (context_) driver_api().cuDevicePrimaryCtxRelease_v2(handle_);
  context_ = nullptr;
}

void Device::make_current() const {
  // Asking is cheaper than setting, and a launch makes its device current several times over.
  const DriverApi& api = driver_api();
  CUcontext current = nullptr;
  if (api.cuCtxGetCurrent(&current) == kCudaSuccess && current == context_) return;
  check(api.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

void Device::synchronize() const {
  make_current();
  check(driver_api().cuCtxSynchronize(), "cuCtxSynchronize");
}

}  // namespace cutile::runtime
