// The runtime half of the safety model: who may touch a tensor's storage, and what GPU work on it is
// still in flight. One BorrowState per storage, shared by every tensor handle and view of it.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "cutile/host/completion.hpp"
#include "cutile/host/overlap.hpp"
#include "cutile/host/stream.hpp"

namespace cutile {

enum class Access { read, write };

/// Thread-safe. Tracks (a) the live exclusive borrows (Partitions), each of the elements of one view,
/// which only its holder may use while it lives; views that share no element with it stay usable, and
/// (b) the last GPU write and the GPU reads since then, so that later work waits for what it depends on:
/// a host read for the last write, GPU work on another stream through an event wait. Every use names the
/// region of the storage it reaches (AnyTensor::region()).
class BorrowState {
 public:
  BorrowState() = default;
  BorrowState(const BorrowState&) = delete;
  BorrowState& operator=(const BorrowState&) = delete;

  /// Describes a use of the storage for an error message ("read tensor f32[64, 64] on cuda:0 with
  /// to_host()"); called only when a message is needed, so that the checks cost nothing on the hot path.
  using Action = std::function<std::string()>;

  /// Starts an exclusive borrow of the elements of `region` by a partition of tile `tile_shape` and
  /// returns its id (never 0). A cutile::UserError "cannot <action>: a partition of it ... is live" when
  /// a live one shares an element with `region`.
  uint64_t begin_exclusive(const StridedBytes& region, std::span<const int64_t> tile_shape, const Action& action);
  /// Ends the borrow `id`; any other id is ignored.
  void end_exclusive(uint64_t id) noexcept;
  bool exclusively_borrowed() const;

  /// A cutile::UserError "cannot <action>: a partition of it (tile [..]) is live; ..." when an exclusive
  /// borrow other than `holder` shares an element with `region`. `action` names the use and the tensor,
  /// e.g. "read tensor f32[64, 64] on cuda:0 with to_host()".
  void check_not_borrowed(const StridedBytes& region, const Action& action, uint64_t holder = 0) const;

  /// Before GPU work on `stream` uses `region` of the storage: checks the borrows as check_not_borrowed
  /// does, then makes `stream` wait (without blocking the host) for the last write, and for a write also
  /// for the reads since then, where they ran on other streams. A stream waits for one write once: its
  /// later work stays behind the wait. The order is kept per storage, not per region.
  void order_before_use(const Stream& stream, Access access, const StridedBytes& region, const Action& action,
                        uint64_t holder = 0);

  /// After GPU work that used the storage was queued: `done` completes when that work has.
  void record_write(const Completion& done);
  void record_read(const Completion& done);

  /// Before the host touches `region` of the storage: checks the borrows, then blocks until the last write
  /// (and for a write also every read since) has finished.
  void wait_for_host(Access access, const StridedBytes& region, const Action& action, uint64_t holder = 0);

  /// Every GPU use that may still be in flight; what freeing the storage must wait for.
  std::vector<Completion> pending() const;

 private:
  // A live partition: its id, the view it borrows and its tile (for messages).
  struct Borrow {
    uint64_t id = 0;
    uint64_t address = 0;
    std::vector<int64_t> shape, strides, tile;
    int64_t element_size = 0;
  };

  void check_locked(const StridedBytes& region, const Action& action, uint64_t holder) const;

  mutable std::mutex mutex_;
  std::vector<Borrow> borrows_;
  Completion last_write_;
  std::vector<Stream> write_awaited_by_;  ///< streams already made to wait for last_write_
  std::vector<Completion> reads_;  ///< since the last write, at most one per stream (the latest)
};

}  // namespace cutile
