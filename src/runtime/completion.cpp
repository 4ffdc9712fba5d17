#include "cutile/host/completion.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace cutile {

using runtime::check;
using runtime::driver_api;

namespace {

// Events are reused rather than destroyed: creating and destroying one per launch costs more host time
// than the rest of a cached launch. Re-recording an event is safe once no Completion refers to it. The
// pool holds at most as many events as were ever alive at once, per device; they live as long as the
// process.
class EventPool {
 public:
  /// An event of `device`'s primary context (current on this thread).
  runtime::CUevent take(const Device& device) {
    {
      std::lock_guard lock(mutex_);
      if (auto it = free_.find(device.index()); it != free_.end() && !it->second.empty()) {
        runtime::CUevent event = it->second.back();
        it->second.pop_back();
        return event;
      }
    }
    runtime::CUevent event = nullptr;
    // No timing: cheaper to record and to wait on.
    check(driver_api().cuEventCreate(&event, runtime::kEventDisableTiming), "cuEventCreate");
    return event;
  }
  void give_back(int device, runtime::CUevent event) {
    std::lock_guard lock(mutex_);
    free_[device].push_back(event);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<int, std::vector<runtime::CUevent>> free_;
};

EventPool& event_pool() {
  static EventPool* pool = new EventPool;  // never destroyed: Completions may outlive static destruction
  return *pool;
}

}  // namespace

Completion Completion::record(const Stream& stream) {
  Completion completion = defer(stream);
  if (completion.event_) completion.event_->recorded();
  return completion;
}

Completion Completion::defer(const Stream& stream) {
  if (stream.device().is_cpu()) return Completion();  // CPU work has finished when it is issued
  Completion completion;
  completion.event_ = std::make_shared<const Event>(stream);
  if (!stream.is_owned() && !stream.is_default()) completion.event_->recorded();  // its owner may destroy it
  return completion;
}

runtime::CUevent Completion::Event::recorded() const {
  std::call_once(once, [this] {
    stream.device().make_current();  // the legacy default stream is the current context's
    runtime::CUevent event = event_pool().take(stream.device());
    try {
      check(driver_api().cuEventRecord(event, stream.handle()), "cuEventRecord");
    } catch (...) {
      event_pool().give_back(stream.device().index(), event);
      throw;  // call_once runs it again at the next need
    }
    handle = event;
  });
  return handle;
}

Completion::Event::~Event() {
  if (handle) event_pool().give_back(stream.device().index(), handle);
}

runtime::CUevent Completion::event() const {
  return event_ ? event_->recorded() : nullptr;
}

void Completion::sync() const {
  if (!event_) return;
  runtime::CUevent event = event_->recorded();
  event_->stream.device().make_current();
  check(driver_api().cuEventSynchronize(event), "cuEventSynchronize");
}

bool Completion::ready() const {
  if (!event_) return true;
  runtime::CUevent event = event_->recorded();
  event_->stream.device().make_current();
  runtime::CUresult result = driver_api().cuEventQuery(event);
  if (result == runtime::kCudaErrorNotReady) return false;
  check(result, "cuEventQuery");
  return true;
}

void Completion::order_before(const Stream& stream) const {
  if (!event_ || event_->stream == stream) return;  // one stream runs its work in order anyway
  runtime::CUevent event = event_->recorded();
  stream.device().make_current();
  check(driver_api().cuStreamWaitEvent(stream.handle(), event, 0), "cuStreamWaitEvent");
}

}  // namespace cutile
