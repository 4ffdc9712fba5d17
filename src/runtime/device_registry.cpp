// The process-wide state behind cutile::Device: one retained primary context per device ordinal, the CPU
// device and the default backend.
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "cutile/error.hpp"
#include "cutile/host/device.hpp"

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

Backend backend_from_env() {
  const char* value = std::getenv("CUTILE_BACKEND");
  if (!value || std::string_view(value).empty() || std::string_view(value) == "cuda") return Backend::cuda;
  if (std::string_view(value) == "interpret") return Backend::interpret;
  throw UserError(std::string("CUTILE_BACKEND=") + value + " is not a backend: use cuda or interpret");
}

std::atomic<Backend>& backend_setting() {
  static std::atomic<Backend> backend{backend_from_env()};
  return backend;
}

}  // namespace

Backend default_backend() { return backend_setting().load(); }
void set_default_backend(Backend backend) { backend_setting().store(backend); }
Device default_device() { return default_backend() == Backend::interpret ? Device::cpu() : Device(0); }

Device Device::cpu() { return Device(CpuTag{}); }

const std::string& Device::name() const {
  static const std::string cpu_name = "CPU (Tile IR interpreter)";
  return state_ ? state_->name() : cpu_name;
}

const std::string& Device::arch() const {
  static const std::string cpu_arch = "interpret";
  return state_ ? state_->arch() : cpu_arch;
}

int Device::sm_count() const {
  return state_ ? state_->sm_count() : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

const runtime::Device& Device::runtime_device() const {
  if (!state_) throw InternalError("the CPU device has no CUDA driver state");
  return *state_;
}

Device::Device(int index) {
  Registered entry = registered(index);
  state_ = entry.device;
  memory_pools_ = entry.memory_pools;
  make_current();  // so that work this thread does next, cutile's or the caller's own, runs here
}

}  // namespace cutile
