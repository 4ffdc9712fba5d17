// Where an op runs: the device and the caller's stream, and the caller's memory lent as cutile tensors
// on that device. The call leaves the caller's current CUDA context as it found it.
#pragma once

#include <span>
#include <utility>

#include "cutile/host/device.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/runtime/driver_api.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/host/tensor.hpp"
#include "descriptor.hpp"

namespace cutile::capi {

/// Makes this thread's current CUDA context, when it goes, the one that was current when it was made:
/// running on a device makes that device's context current, and the caller (torch.cuda.current_device()
/// reads it) must not see it change.
class ContextRestore {
 public:
  /// Records the current context; restores nothing where there is no driver.
  static ContextRestore of_this_thread();
  ContextRestore() = default;  ///< restores nothing
  ~ContextRestore();
  ContextRestore(ContextRestore&& other) noexcept
      : saved_(std::exchange(other.saved_, nullptr)), active_(std::exchange(other.active_, false)) {}
  ContextRestore& operator=(ContextRestore&&) = delete;
  ContextRestore(const ContextRestore&) = delete;

 private:
  runtime::CUcontext saved_ = nullptr;
  bool active_ = false;
};

struct Placement {
  ContextRestore restore;  // first: restored after everything else of the call is gone
  Device device;
  Stream stream;

  /// Launch options on this placement's stream, no hints set.
  LaunchOptions launch_options() const {
    LaunchOptions options;
    options.stream = stream;
    return options;
  }
};

/// The device the checked `tensors` are on (check_descriptors made them agree) and `stream` borrowed on
/// it. Host tensors run on the CPU interpreter, synchronously, and take a null stream (else
/// INVALID_STREAM). For CUDA tensors, no driver or no device `device_id` is DEVICE_UNAVAILABLE; a stream
/// the driver does not know, or of another device, INVALID_STREAM.
Placement place(std::span<const CheckedTensor> tensors, int32_t device_id, void* stream);

/// `tensor`'s memory as a cutile tensor lent for this call (AnyTensor::lend: the caller's stream orders its
/// uses, so no borrow state is kept and the launches record no event); memory the driver does not know
/// as the device's is INVALID_POINTER.
AnyTensor lend(const CheckedTensor& tensor, const Placement& placement);

}  // namespace cutile::capi
