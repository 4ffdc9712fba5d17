#include "cutile/host/borrow_state.hpp"

#include <algorithm>
#include <atomic>

#include "cutile/error.hpp"
#include "cutile/host/layout.hpp"

namespace cutile {
namespace {

// Process-wide, so that an id from one storage never matches another's borrow.
std::atomic<uint64_t> next_borrow_id{1};

}  // namespace

uint64_t BorrowState::begin_exclusive(const StridedBytes& region, std::span<const int64_t> tile_shape,
                                      const Action& action) {
  std::lock_guard lock(mutex_);
  check_locked(region, action, 0);
  Borrow& borrow = borrows_.emplace_back();
  borrow.id = next_borrow_id.fetch_add(1, std::memory_order_relaxed);
  borrow.address = region.address;
  borrow.shape.assign(region.shape.begin(), region.shape.end());
  borrow.strides.assign(region.strides.begin(), region.strides.end());
  borrow.tile.assign(tile_shape.begin(), tile_shape.end());
  borrow.element_size = region.element_size;
  return borrow.id;
}

void BorrowState::end_exclusive(uint64_t id) noexcept {
  std::lock_guard lock(mutex_);
  std::erase_if(borrows_, [id](const Borrow& borrow) { return borrow.id == id; });
}

bool BorrowState::exclusively_borrowed() const {
  std::lock_guard lock(mutex_);
  return !borrows_.empty();
}

void BorrowState::check_not_borrowed(const StridedBytes& region, const Action& action, uint64_t holder) const {
  std::lock_guard lock(mutex_);
  check_locked(region, action, holder);
}

void BorrowState::check_locked(const StridedBytes& region, const Action& action, uint64_t holder) const {
  for (const Borrow& borrow : borrows_) {
    if (borrow.id == holder ||
        !elements_overlap(region, {borrow.address, borrow.shape, borrow.strides, borrow.element_size}))
      continue;
    throw UserError("cannot " + action() + ": a partition of it (tile " + format_extents(borrow.tile) +
                    ") is live and holds it exclusively; call unpartition() on the partition or let it go "
                    "out of scope first");
  }
}

void BorrowState::order_before_use(const Stream& stream, Access access, const StridedBytes& region,
                                   const Action& action, uint64_t holder) {
  std::lock_guard lock(mutex_);
  check_locked(region, action, holder);
  if (last_write_.stream() && !(*last_write_.stream() == stream) &&
      std::find(write_awaited_by_.begin(), write_awaited_by_.end(), stream) == write_awaited_by_.end()) {
    last_write_.order_before(stream);
    write_awaited_by_.push_back(stream);
  }
  if (access == Access::write)
    for (const Completion& read : reads_) read.order_before(stream);
}

void BorrowState::record_write(const Completion& done) {
  std::lock_guard lock(mutex_);
  // The writer was ordered after every earlier use (order_before_use), so it stands for all of them.
  last_write_ = done;
  write_awaited_by_.clear();
  reads_.clear();
}

void BorrowState::record_read(const Completion& done) {
  std::lock_guard lock(mutex_);
  // A stream runs in order, so a newer read on the same stream covers the older one.
  auto same_stream = std::find_if(reads_.begin(), reads_.end(), [&](const Completion& read) {
    return read.stream() && done.stream() && *read.stream() == *done.stream();
  });
  if (same_stream != reads_.end()) {
    *same_stream = done;
    return;
  }
  std::erase_if(reads_, [](const Completion& read) { return read.ready(); });
  reads_.push_back(done);
}

void BorrowState::wait_for_host(Access access, const StridedBytes& region, const Action& action,
                                uint64_t holder) {
  Completion write;
  std::vector<Completion> reads;
  {
    std::lock_guard lock(mutex_);
    check_locked(region, action, holder);
    write = last_write_;
    if (access == Access::write) reads = reads_;
  }
  // Outside the lock: other threads may queue work on the storage meanwhile, as they could right after.
  write.sync();
  for (const Completion& read : reads) read.sync();
}

std::vector<Completion> BorrowState::pending() const {
  std::lock_guard lock(mutex_);
  std::vector<Completion> all = reads_;
  if (last_write_.stream()) all.push_back(last_write_);
  return all;
}

}  // namespace cutile
