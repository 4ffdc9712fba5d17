// A GPU and its primary context.
#pragma once

#include <string>

#include "cutile/runtime/driver_api.hpp"

namespace cutile::runtime {

/// The number of GPUs the driver sees; a cutile::RuntimeError when there is no usable driver.
int device_count();

struct DeviceInfo {
  int index = -1;
  std::string name;
  std::string arch;  ///< tileiras' --gpu-name, e.g. "sm_90"
  int sm_count = 0;
};

/// What the driver says about a GPU, without creating a context; a cutile::UserError for a bad index.
DeviceInfo device_info(int index);

/// Holds a reference on the device's primary context, which the constructor makes current on the
/// calling thread: buffers, modules and launches made on that thread then run on this device.
class Device {
 public:
  explicit Device(int index = 0);
  ~Device();
  Device(Device&& other) noexcept;
  Device& operator=(Device&& other) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const { return info_; }
  int index() const { return info_.index; }
  const std::string& name() const { return info_.name; }
  const std::string& arch() const { return info_.arch; }
  int sm_count() const { return info_.sm_count; }
  CUcontext context() const { return context_; }

  /// Makes the primary context current on the calling thread.
  void make_current() const;
  /// Waits for all work on the context.
  void synchronize() const;

 private:
  void release() noexcept;

  DeviceInfo info_;
  CUdevice handle_ = 0;
  CUcontext context_ = nullptr;
};

}  // namespace cutile::runtime
