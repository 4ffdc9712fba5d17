// The process-wide state behind cutile::Device: one retained primary context per device ordinal.
#include <map>
#include <mutex>

#include "cutile/device.hpp"

namespace cutile {
namespace {

struct Registered {
  const runtime::Device* device;
  bool memory_pools;
};

Registered registered(int index) {
  static std::mutex mutex;
  // Never destroyed: releasing primary contexts during static destruction races with the driver's own
  // teardown, and tensors freed at exit still need the context.
  static auto* devices = new std::map<int, Registered>();
  std::lock_guard lock(mutex);
  if (auto found = devices->find(index); found != devices->end()) return found->second;
  auto* device = new runtime::Device(index);  // throws for a bad index or without a driver
  int pools = 0;
  runtime::CUdevice handle = 0;
  runtime::check(runtime::driver_api().cuDeviceGet(&handle, index), "cuDeviceGet");
  runtime::check(
      runtime::driver_api().cuDeviceGetAttribute(&pools, runtime::kAttributeMemoryPoolsSupported, handle),
      "cuDeviceGetAttribute");
  Registered entry{device, pools != 0 && runtime::driver_api().cuMemAllocAsync != nullptr};
  devices->emplace(index, entry);
  return entry;
}

}  // namespace

Device::Device(int index) {
  Registered entry = registered(index);
  state_ = entry.device;
  memory_pools_ = entry.memory_pools;
  make_current();  // so that work this thread does next, cutile's or the caller's own, runs here
}

}  // namespace cutile
