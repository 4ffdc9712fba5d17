// A device as the user sees it: a GPU, or the CPU interpreter. A cheap, copyable handle on process-wide
// state per device.
#pragma once

#include <string>

#include "cutile/runtime/device.hpp"

namespace cutile {

/// The first `Device(i)` in the process retains GPU i's primary context (the one PyTorch and the CUDA
/// runtime use) and keeps it until the process ends; every later handle for i shares that state, so
/// copies are free and usable from any thread. Each operation that touches the GPU makes the primary
/// context current on the calling thread first.
class Device {
 public:
  /// A cutile::UserError for an index the driver does not have, a cutile::RuntimeError without a driver.
  explicit Device(int index = 0);
  /// The CPU as a device: tensors live in host memory and launches run the Tile IR interpreter
  /// (src/interp) on all cores, synchronously — no driver, no GPU, no tileiras needed. Out-of-bounds
  /// accesses, reads of uninitialised tensor memory and failed asserts are located errors.
  static Device cpu();

  bool is_cpu() const { return state_ == nullptr; }
  /// The GPU ordinal; 0 for the CPU.
  int index() const { return is_cpu() ? 0 : state_->index(); }
  const std::string& name() const;
  /// tileiras' --gpu-name, e.g. "sm_90"; "interpret" for the CPU.
  const std::string& arch() const;
  /// Streaming multiprocessors; hardware threads for the CPU.
  int sm_count() const;
  /// Whether stream-ordered allocation (cuMemAllocAsync) is available; tensors use cuMemAlloc otherwise.
  bool memory_pools_supported() const { return memory_pools_; }

  /// Makes the primary context current on the calling thread (nothing for the CPU).
  void make_current() const {
    if (state_) state_->make_current();
  }
  /// Waits for all work on the device's primary context, from every stream (the CPU's work is
  /// synchronous: nothing to wait for).
  void synchronize() const {
    if (state_) state_->synchronize();
  }
  /// The driver-level device; a cutile::InternalError for the CPU.
  const runtime::Device& runtime_device() const;

  /// "cuda:0", or "cpu"
  std::string describe() const { return is_cpu() ? "cpu" : "cuda:" + std::to_string(index()); }

  friend bool operator==(const Device& a, const Device& b) { return a.state_ == b.state_; }

 private:
  struct CpuTag {};
  explicit Device(CpuTag) {}
  const runtime::Device* state_ = nullptr;  // owned by the process-wide registry, never freed; null: CPU
  bool memory_pools_ = false;
};

/// Where launches go when the program does not pick a device itself: cuda (GPU 0) or interpret
/// (Device::cpu()). The environment variable CUTILE_BACKEND (cuda | interpret) sets the initial value;
/// set_default_backend changes it for the process.
enum class Backend { cuda, interpret };
Backend default_backend();
void set_default_backend(Backend backend);
/// Device(0) for Backend::cuda, Device::cpu() for Backend::interpret.
Device default_device();

}  // namespace cutile
