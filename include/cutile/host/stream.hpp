// A CUDA stream on one device: owned by cutile, or borrowed from whoever made it (PyTorch, say).
#pragma once

#include <memory>

#include "cutile/host/device.hpp"
#include "cutile/runtime/driver_api.hpp"

namespace cutile {

/// A copyable handle; copies share the stream, and an owned stream is destroyed with its last handle
/// (work queued on it still completes: cuStreamDestroy does not wait, and the driver finishes it).
class Stream {
 public:
  /// A new stream of its own, non-blocking: it does not synchronize with the legacy default stream.
  explicit Stream(const Device& device);

  /// Wraps a CUstream made by someone else (e.g. `torch.cuda.current_stream().cuda_stream`); cutile never
  /// destroys it, and the caller keeps it alive for as long as any handle or queued work uses it. A
  /// cutile::UserError when the stream belongs to another device's context than `device`'s primary one.
  static Stream borrow(void* cu_stream, const Device& device);

  /// The legacy default stream (CUstream 0) of the device's primary context. It waits for, and is waited
  /// on by, every blocking stream of the context, but not by non-blocking ones such as `Stream(device)`;
  /// cutile orders its own work across streams with events, so mixing it with other streams is safe.
  static Stream default_stream(const Device& device);

  /// Blocks the calling thread until all work queued so far has finished; driver errors (including a
  /// kernel's fault) are cutile::RuntimeErrors.
  void synchronize() const;

  /// The CUstream, as a void* for foreign APIs.
  void* native_handle() const { return state_->handle; }
  runtime::CUstream handle() const { return state_->handle; }
  const Device& device() const { return state_->device; }
  bool is_owned() const { return state_->owned; }
  bool is_default() const { return state_->handle == nullptr; }

  friend bool operator==(const Stream& a, const Stream& b) {
    return a.state_->handle == b.state_->handle && a.state_->device == b.state_->device;
  }

 private:
  struct State {
    State(const Device& on, runtime::CUstream stream, bool owns) : device(on), handle(stream), owned(owns) {}
    ~State();
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    Device device;
    runtime::CUstream handle;
    bool owned;
  };
  explicit Stream(std::shared_ptr<const State> state) : state_(std::move(state)) {}

  std::shared_ptr<const State> state_;
};

}  // namespace cutile
