// Host memory as a kernel sees it: the regions it may touch, checked on every access (bounds, write
// permission, initialisation), and the locks that make atomics atomic across tile blocks. As on the GPU,
// plain loads and stores of different blocks are not ordered with each other; only atomics are.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cutile/interp/run.hpp"

namespace cutile::interp {

class Memory {
 public:
  explicit Memory(std::span<const MemoryRegion> regions);

  /// Reads `bytes` bytes at `address` into the low bytes of the result (little-endian). Throws Fault when
  /// the bytes are not inside one region or not initialised; `element` names the tile element in messages.
  uint64_t load(uint64_t address, int bytes, int64_t element) const;
  /// Writes the low `bytes` bytes of `bits` and marks them initialised.
  void store(uint64_t address, int bytes, uint64_t bits, int64_t element) const;
  /// Checks that a load (or store) of `bytes` bytes at `address` is legal without performing it.
  void check(uint64_t address, int bytes, bool write, int64_t element) const;

  /// The lock guarding read-modify-write of the element at `address` (striped by address).
  std::mutex& lock_for(uint64_t address) const;

 private:
  const MemoryRegion& region_of(uint64_t address, int bytes, bool write, int64_t element) const;

  std::vector<MemoryRegion> regions_;  // sorted by address
  mutable std::array<std::mutex, 64> stripes_;
};

}  // namespace cutile::interp
