// The async result of queued GPU work: an event recorded on a stream, now or when first needed.
#pragma once

#include <memory>
#include <mutex>

#include "cutile/host/stream.hpp"

namespace cutile {

/// A copyable handle on an event recorded on a stream after some work; copies share the event. A
/// default-constructed Completion stands for work that has already finished.
class Completion {
 public:
  Completion() = default;

  /// Records an event on `stream` now: it completes when everything queued on `stream` so far has.
  static Completion record(const Stream& stream);
  /// Stands for everything queued on `stream` so far, like record, but records the event only when first
  /// needed (sync, ready, order_before another stream, event): a launch whose completion nothing waits
  /// for, such as one followed by more work on the same stream, makes one driver call less. The event
  /// then also covers what was queued on `stream` in between, so a wait may be longer, never shorter.
  /// Deferred only on streams that live as long as the Completion does (owned streams, the default
  /// stream); on a borrowed stream, which its owner may destroy, the event is recorded now.
  static Completion defer(const Stream& stream);

  /// Blocks the calling thread until the work has finished. A driver error, including a fault of the
  /// kernel, is a cutile::RuntimeError.
  void sync() const;
  /// Whether the work has finished, without waiting (cuEventQuery).
  bool ready() const;
  /// Makes work queued on `stream` from now on wait for this work, without blocking the host.
  void order_before(const Stream& stream) const;

  /// The stream the work was queued on; null for a default-constructed Completion.
  const Stream* stream() const { return event_ ? &event_->stream : nullptr; }
  /// The event, recorded now if it was deferred; null for a default-constructed Completion.
  runtime::CUevent event() const;

 private:
  struct Event {
    explicit Event(const Stream& on) : stream(on) {}
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    /// Takes an event from the pool and records it on `stream`, once.
    runtime::CUevent recorded() const;

    Stream stream;
    mutable std::once_flag once;
    mutable runtime::CUevent handle = nullptr;
  };

  std::shared_ptr<const Event> event_;
};

}  // namespace cutile
