#include "cutile/runtime/device_buffer.hpp"

#include <utility>

namespace cutile::runtime {
namespace {

void check_fits(size_t bytes, size_t size, const char* direction) {
  if (bytes > size)
    throw UserError(std::string("cannot copy ") + std::to_string(bytes) + " bytes " + direction +
                    " a device buffer of " + std::to_string(size) + " bytes");
}

}  // namespace

// cuMemAlloc refuses zero bytes; an empty buffer simply has no allocation.
DeviceBuffer::DeviceBuffer(size_t bytes) : size_(bytes) {
  if (bytes > 0) check(driver_api().cuMemAlloc_v2(&address_, bytes), "cuMemAlloc_v2");
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : address_(std::exchange(other.address_, 0)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    address_ = std::exchange(other.address_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::release() noexcept {
  // A destructor cannot report a failed free; it only leaks device memory.
  if (address_) driver_api().cuMemFree_v2(address_);
  address_ = 0;
  size_ = 0;
}

void DeviceBuffer::copy_from_host(const void* source, size_t bytes) {
  check_fits(bytes, size_, "into");
  if (bytes > 0) check(driver_api().cuMemcpyHtoD_v2(address_, source, bytes), "cuMemcpyHtoD_v2");
}

void DeviceBuffer::copy_to_host(void* destination, size_t bytes) const {
  check_fits(bytes, size_, "out of");
  if (bytes > 0) check(driver_api().cuMemcpyDtoH_v2(destination, address_, bytes), "cuMemcpyDtoH_v2");
}

void DeviceBuffer::memset(uint8_t value) {
  if (size_ > 0) check(driver_api().cuMemsetD8_v2(address_, value, size_), "cuMemsetD8_v2");
}

}  // namespace cutile::runtime
