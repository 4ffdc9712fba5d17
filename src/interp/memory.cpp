#include "interp/memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <sstream>

#include "cutile/error.hpp"
#include "cutile/host/overlap.hpp"
#include "interp/fault.hpp"

namespace cutile::interp {
namespace {

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

std::string access_text(uint64_t address, int bytes, bool write, int64_t element) {
  return std::string(write ? "store" : "load") + " of " + std::to_string(bytes) + " bytes at " + hex(address) +
         " (tile element " + std::to_string(element) + ")";
}

// Whether the bytes [address, address + bytes) share a byte with an element of the region's view.
bool reaches_elements(const MemoryRegion& r, uint64_t address, int bytes) {
  if (r.shape.empty() || r.element_size <= 0) return true;
  static constexpr int64_t kOne[] = {1};
  return elements_overlap({r.address, r.shape, r.strides, r.element_size}, {address, kOne, kOne, bytes});
}

}  // namespace

Memory::Memory(std::span<const MemoryRegion> regions) : regions_(regions.begin(), regions.end()) {
  std::sort(regions_.begin(), regions_.end(),
            [](const MemoryRegion& a, const MemoryRegion& b) { return a.address < b.address; });
  for (const MemoryRegion& r : regions_) {
    if (r.bytes < 0) throw UserError("memory region '" + r.name + "' has a negative size");
    if (!r.initialised.empty() && static_cast<int64_t>(r.initialised.size()) != r.bytes)
      throw UserError("memory region '" + r.name + "': the initialised map has " + std::to_string(r.initialised.size()) +
                      " bytes but the region has " + std::to_string(r.bytes));
  }
}

const MemoryRegion& Memory::region_of(uint64_t address, int bytes, bool write, int64_t element) const {
  auto holds = [&](const MemoryRegion& r) {
    const uint64_t offset = address - r.address;
    return offset < static_cast<uint64_t>(r.bytes) && offset + static_cast<uint64_t>(bytes) <= static_cast<uint64_t>(r.bytes);
  };
  // The regions starting at or below the address, nearest first: regions may nest (a list member and a
  // view into it), so the nearest need not be the one that holds the bytes.
  auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](uint64_t a, const MemoryRegion& r) { return a < r.address; });
  // A store into a read-only region's span may still be the store of a writable view whose elements
  // interleave with it (even and odd rows of one buffer): it is refused only when it reaches the read-only
  // view's elements, or no writable region holds it.
  const MemoryRegion* read_only = nullptr;  // the read-only region the store is refused for
  for (auto r = it; r != regions_.begin();) {
    --r;
    if (!holds(*r)) continue;
    if (!write || r->writable) return *r;
    if (reaches_elements(*r, address, bytes)) {
      read_only = &*r;
      break;
    }
    if (!read_only) read_only = &*r;
  }
  if (read_only)
    throw Fault(access_text(address, bytes, write, element) + " writes read-only region '" + read_only->name + "'");
  if (it != regions_.begin()) {
    const MemoryRegion& r = *(it - 1);
    const uint64_t offset = address - r.address;
    if (offset < static_cast<uint64_t>(r.bytes) + 4096)
      throw Fault(access_text(address, bytes, write, element) + " is out of bounds of region '" + r.name + "' (" +
                  std::to_string(r.bytes) + " bytes at " + hex(r.address) + ", access at byte offset " +
                  std::to_string(offset) + ")");
  }
  throw Fault(access_text(address, bytes, write, element) + " is outside every memory region the kernel may touch");
}

void Memory::check(uint64_t address, int bytes, bool write, int64_t element) const {
  const MemoryRegion& r = region_of(address, bytes, write, element);
  if (write || r.initialised.empty()) return;
  const uint64_t offset = address - r.address;
  for (int b = 0; b < bytes; ++b)
    if (std::atomic_ref<uint8_t>(r.initialised[offset + static_cast<uint64_t>(b)]).load(std::memory_order_relaxed) == 0)
      throw Fault(access_text(address, bytes, write, element) + " reads uninitialised memory of region '" + r.name +
                  "' at byte offset " + std::to_string(offset + static_cast<uint64_t>(b)));
}

uint64_t Memory::load(uint64_t address, int bytes, int64_t element) const {
  check(address, bytes, false, element);
  uint64_t bits = 0;
  std::memcpy(&bits, reinterpret_cast<const void*>(address), static_cast<size_t>(bytes));
  return bits;
}

void Memory::store(uint64_t address, int bytes, uint64_t bits, int64_t element) const {
  const MemoryRegion& r = region_of(address, bytes, true, element);
  std::memcpy(reinterpret_cast<void*>(address), &bits, static_cast<size_t>(bytes));
  if (r.initialised.empty()) return;
  const uint64_t offset = address - r.address;
  for (int b = 0; b < bytes; ++b)
    std::atomic_ref<uint8_t>(r.initialised[offset + static_cast<uint64_t>(b)]).store(1, std::memory_order_relaxed);
}

std::mutex& Memory::lock_for(uint64_t address) const { return stripes_[(address >> 3) % stripes_.size()]; }

}  // namespace cutile::interp
