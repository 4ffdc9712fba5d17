#include "cutile/completion.hpp"

namespace cutile {

using runtime::check;
using runtime::driver_api;

Completion Completion::record(const Stream& stream) {
  stream.device().make_current();
  runtime::CUevent handle = nullptr;
  // No timing: cheaper to record and to wait on.
  check(driver_api().cuEventCreate(&handle, runtime::kEventDisableTiming), "cuEventCreate");
  Completion completion;
  completion.event_ = std::make_shared<const Event>(stream, handle);  // owns the event from here on
  check(driver_api().cuEventRecord(handle, stream.handle()), "cuEventRecord");
  return completion;
}

Completion::Event::~Event() {
  // Destroying an event whose work is still queued is allowed: the driver releases it once it fires.
  stream.device().make_current();
  driver_api().cuEventDestroy_v2(handle);
}

void Completion::sync() const {
  if (!event_) return;
  event_->stream.device().make_current();
  check(driver_api().cuEventSynchronize(event_->handle), "cuEventSynchronize");
}

bool Completion::ready() const {
  if (!event_) return true;
  event_->stream.device().make_current();
  runtime::CUresult result = driver_api().cuEventQuery(event_->handle);
  if (result == runtime::kCudaErrorNotReady) return false;
  check(result, "cuEventQuery");
  return true;
}

void Completion::order_before(const Stream& stream) const {
  if (!event_ || event_->stream == stream) return;  // one stream runs its work in order anyway
  stream.device().make_current();
  check(driver_api().cuStreamWaitEvent(stream.handle(), event_->handle, 0), "cuStreamWaitEvent");
}

}  // namespace cutile
