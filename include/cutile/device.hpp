// A GPU as the user sees it: a cheap, copyable handle on process-wide state per device ordinal.
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

  int index() const { return state_->index(); }
  const std::string& name() const { return state_->name(); }
  const std::string& arch() const { return state_->arch(); }  ///< tileiras' --gpu-name, e.g. "sm_90"
  int sm_count() const { return state_->sm_count(); }
  /// Whether stream-ordered allocation (cuMemAllocAsync) is available; tensors use cuMemAlloc otherwise.
  bool memory_pools_supported() const { return memory_pools_; }

  /// Makes the primary context current on the calling thread.
  void make_current() const { state_->make_current(); }
  /// Waits for all work on the device's primary context, from every stream.
  void synchronize() const { state_->synchronize(); }
  const runtime::Device& runtime_device() const { return *state_; }

  /// "cuda:0"
  std::string describe() const { return "cuda:" + std::to_string(index()); }

  friend bool operator==(const Device& a, const Device& b) { return a.state_ == b.state_; }

 private:
  const runtime::Device* state_;  // owned by the process-wide registry, never freed
  bool memory_pools_ = false;
};

}  // namespace cutile
