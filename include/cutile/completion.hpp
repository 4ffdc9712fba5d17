// The async result of queued GPU work: an event recorded on a stream.
#pragma once

#include <memory>

#include "cutile/stream.hpp"

namespace cutile {

/// A copyable handle on an event recorded on a stream after some work; copies share the event. A
/// default-constructed Completion stands for work that has already finished.
class Completion {
 public:
  Completion() = default;

  /// Records an event on `stream` now: it completes when everything queued on `stream` so far has.
  static Completion record(const Stream& stream);

  /// Blocks the calling thread until the work has finished. A driver error, including a fault of the
  /// kernel, is a cutile::RuntimeError.
  void sync() const;
  /// Whether the work has finished, without waiting (cuEventQuery).
  bool ready() const;
  /// Makes work queued on `stream` from now on wait for this work, without blocking the host.
  void order_before(const Stream& stream) const;

  /// The stream the event was recorded on; null for a default-constructed Completion.
  const Stream* stream() const { return event_ ? &event_->stream : nullptr; }
  runtime::CUevent event() const { return event_ ? event_->handle : nullptr; }

 private:
  struct Event {
    Event(const Stream& on, runtime::CUevent event) : stream(on), handle(event) {}
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    Stream stream;
    runtime::CUevent handle;
  };

  std::shared_ptr<const Event> event_;
};

}  // namespace cutile
