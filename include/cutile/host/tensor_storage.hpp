// The memory behind tensors: owned device memory, borrowed or lent device memory, or none (meta), plus
// the borrow state every handle and view of that memory shares. The CPU device's memory is host memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cutile/host/borrow_state.hpp"
#include "cutile/host/device.hpp"
#include "cutile/host/stream.hpp"

namespace cutile {

class TensorStorage {
 public:
  enum class Kind {
    owned,     ///< allocated by cutile, freed when the last handle goes
    borrowed,  ///< someone else's memory; never freed by cutile
    lent,      ///< someone else's memory for one call, ordered by the caller's stream: no borrow state
    meta,      ///< no memory and no device: a description only
  };

  /// `bytes` of device memory, stream-ordered on `stream` (cuMemAllocAsync) where the device supports
  /// it, else with cuMemAlloc. Other streams wait for the allocation before their first use. On the CPU
  /// device: 256-byte aligned host memory, with a map of which bytes have been written.
  static std::shared_ptr<TensorStorage> allocate(const Device& device, int64_t bytes, const Stream& stream);
  /// `bytes` from `address`, which must be device memory of `device` (checked with the driver), or host
  /// memory for the CPU device (taken as initialised).
  static std::shared_ptr<TensorStorage> borrow(const Device& device, uint64_t address, int64_t bytes);
  /// Like borrow, for memory the caller lends to the launches of one call on one stream of its own (the C
  /// ABI's tensors): that stream orders the launches after earlier work on the memory and later work
  /// after them, so nothing is tracked and there is no borrow state to keep.
  static std::shared_ptr<TensorStorage> lend(const Device& device, uint64_t address, int64_t bytes);
  static std::shared_ptr<TensorStorage> meta(int64_t bytes);

  /// Frees owned memory after every GPU use recorded in the borrow state: stream-ordered memory is freed
  /// on a per-device release stream that waits for those uses, without blocking; cuMemAlloc memory
  /// after waiting for them on the host.
  ~TensorStorage();
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;

  Kind kind() const { return kind_; }
  uint64_t address() const { return address_; }
  int64_t bytes() const { return bytes_; }
  /// Null for a meta storage.
  const Device* device() const { return device_ ? &*device_ : nullptr; }
  /// Null for lent storage.
  const std::shared_ptr<BorrowState>& state() const { return state_; }
  /// Owned CPU memory: one byte per memory byte, nonzero once written (the interpreter reports reads of
  /// the others). Empty for all other storage.
  std::span<uint8_t> initialised() { return initialised_; }

 private:
  TensorStorage(Kind kind, std::optional<Device> device, uint64_t address, int64_t bytes, bool stream_ordered)
      : kind_(kind),
        device_(std::move(device)),
        address_(address),
        bytes_(bytes),
        stream_ordered_(stream_ordered),
        state_(kind == Kind::lent ? nullptr : std::make_shared<BorrowState>()) {}

  /// The checks of borrow and lend: `address` is host memory for the CPU device, else device memory of
  /// `device` (asking the driver unless a known allocation holds it); a cutile::UserError if not.
  static void check_memory_of(const Device& device, uint64_t address, int64_t bytes);

  Kind kind_;
  std::optional<Device> device_;
  uint64_t address_;
  int64_t bytes_;
  bool stream_ordered_;
  std::shared_ptr<BorrowState> state_;
  std::vector<uint8_t> initialised_;
};

}  // namespace cutile
