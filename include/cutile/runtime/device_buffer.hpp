// Device memory owned by one object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cutile/error.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace cutile::runtime {

/// Allocated with cuMemAlloc on the current context, which must still be alive when it is freed.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// A buffer holding a copy of `values`.
  template <class T>
  static DeviceBuffer from_host(const std::vector<T>& values) {
    DeviceBuffer buffer(values.size() * sizeof(T));
    buffer.upload(values);
    return buffer;
  }

  CUdeviceptr address() const { return address_; }
  size_t size() const { return size_; }

  void copy_from_host(const void* source, size_t bytes);
  void copy_to_host(void* destination, size_t bytes) const;
  void memset(uint8_t value);

  /// Copies `values` to the start of the buffer.
  template <class T>
  void upload(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy_from_host(values.data(), values.size() * sizeof(T));
  }

  /// The whole buffer as elements of T.
  template <class T>
  std::vector<T> download() const {
    static_assert(std::is_trivially_copyable_v<T>);
    if (size_ % sizeof(T) != 0)
      throw UserError("cannot read a buffer of " + std::to_string(size_) + " bytes as elements of " +
                      std::to_string(sizeof(T)) + " bytes");
    std::vector<T> values(size_ / sizeof(T));
    copy_to_host(values.data(), size_);
    return values;
  }

 private:
  void release() noexcept;

  CUdeviceptr address_ = 0;
  size_t size_ = 0;
};

}  // namespace cutile::runtime
