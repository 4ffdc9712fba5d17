#include "cutile/host/tensor_storage.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "cutile/error.hpp"

namespace cutile {
namespace {

using runtime::check;
using runtime::driver_api;

// One per device, never destroyed: storage can be freed from static destructors at exit.
const Stream& release_stream(const Device& device) {
  static std::mutex mutex;
  static auto* streams = new std::map<int, Stream>();
  std::lock_guard lock(mutex);
  auto found = streams->find(device.index());
  if (found == streams->end()) found = streams->emplace(device.index(), Stream(device)).first;
  return found->second;
}

// Allocations the driver has already confirmed as memory of a device: borrowing memory inside one again
// (a framework's caching allocator hands out the same segments over and over) costs no driver call.
// Memory that is freed and handed out again by the driver is still memory of that device, so a hit
// never accepts another device's memory; it can miss a pointer into a segment freed since.
class KnownAllocations {
 public:
  bool contains(int device, uint64_t address) {
    std::lock_guard lock(mutex_);
    for (const Range& r : ranges_)
      if (r.device == device && address >= r.start && address - r.start < r.bytes) return true;
    return false;
  }
  void add(int device, uint64_t start, uint64_t bytes) {
    std::lock_guard lock(mutex_);
    if (ranges_.size() == kCapacity) ranges_.erase(ranges_.begin());  // the oldest
    ranges_.push_back({device, start, bytes});
  }

 private:
  static constexpr size_t kCapacity = 64;
  struct Range {
    int device;
    uint64_t start, bytes;
  };
  std::mutex mutex_;
  std::vector<Range> ranges_;
};

KnownAllocations& known_allocations() {
  static auto* known = new KnownAllocations;  // never destroyed: borrows may happen during static destruction
  return *known;
}

std::string hex(uint64_t address) {
  std::ostringstream text;
  text << "0x" << std::hex << address;
  return text.str();
}

}  // namespace

std::shared_ptr<TensorStorage> TensorStorage::allocate(const Device& device, int64_t bytes,
                                                       const Stream& stream) {
  if (!(stream.device() == device))
    throw UserError("cannot allocate on " + device.describe() + " in order on a stream of " +
                    stream.device().describe());
  if (device.is_cpu()) {
    std::shared_ptr<TensorStorage> storage(new TensorStorage(Kind::owned, device, 0, bytes, false));
    if (bytes == 0) return storage;
    constexpr int64_t kAlignment = 256;  // what cuMemAlloc guarantees, so specialisation facts agree
    void* memory = std::aligned_alloc(kAlignment, static_cast<size_t>((bytes + kAlignment - 1) / kAlignment * kAlignment));
    if (!memory) throw RuntimeError("cannot allocate " + std::to_string(bytes) + " bytes of host memory for a CPU tensor");
    storage->address_ = reinterpret_cast<uint64_t>(memory);
    storage->initialised_.assign(static_cast<size_t>(bytes), 0);
    return storage;
  }
  const bool stream_ordered = device.memory_pools_supported();
  std::shared_ptr<TensorStorage> storage(new TensorStorage(Kind::owned, device, 0, bytes, stream_ordered));
  if (bytes == 0) return storage;  // the driver refuses zero bytes; nothing to allocate
  device.make_current();
  runtime::CUdeviceptr address = 0;
  if (stream_ordered) {
    check(driver_api().cuMemAllocAsync(&address, static_cast<size_t>(bytes), stream.handle()),
          "cuMemAllocAsync");
    storage->address_ = address;
    // Other streams must not touch the memory before the allocation happens in `stream`'s order.
    storage->state_->record_write(Completion::record(stream));
  } else {
    check(driver_api().cuMemAlloc_v2(&address, static_cast<size_t>(bytes)), "cuMemAlloc_v2");
    storage->address_ = address;
  }
  return storage;
}

void TensorStorage::check_memory_of(const Device& device, uint64_t address, int64_t bytes) {
  if (bytes > 0 && device.is_cpu() && address == 0)
    throw UserError("cannot borrow a null host pointer for a CPU tensor with elements");
  if (bytes == 0 || device.is_cpu() || known_allocations().contains(device.index(), address)) return;
  if (address == 0) throw UserError("cannot borrow a null device pointer for a tensor with elements");
  device.make_current();
  int ordinal = -1;
  runtime::CUresult result =
      driver_api().cuPointerGetAttribute(&ordinal, runtime::kPointerAttributeDeviceOrdinal, address);
  if (result != runtime::kCudaSuccess)
    throw UserError("cannot borrow " + hex(address) + " as device memory: the CUDA driver does not know it (" +
                    runtime::describe_result(result) + ")");
  if (ordinal != device.index())
    throw UserError("cannot borrow " + hex(address) + " for " + device.describe() + ": it is memory of cuda:" +
                    std::to_string(ordinal));
  runtime::CUdeviceptr start = 0;
  size_t range = 0;
  if (driver_api().cuPointerGetAttribute(&start, runtime::kPointerAttributeRangeStartAddr, address) ==
          runtime::kCudaSuccess &&
      driver_api().cuPointerGetAttribute(&range, runtime::kPointerAttributeRangeSize, address) ==
          runtime::kCudaSuccess)
    known_allocations().add(device.index(), start, range);
}

std::shared_ptr<TensorStorage> TensorStorage::borrow(const Device& device, uint64_t address, int64_t bytes) {
  check_memory_of(device, address, bytes);
  return std::shared_ptr<TensorStorage>(new TensorStorage(Kind::borrowed, device, address, bytes, false));
}

std::shared_ptr<TensorStorage> TensorStorage::lend(const Device& device, uint64_t address, int64_t bytes) {
  check_memory_of(device, address, bytes);
  return std::shared_ptr<TensorStorage>(new TensorStorage(Kind::lent, device, address, bytes, false));
}

std::shared_ptr<TensorStorage> TensorStorage::meta(int64_t bytes) {
  return std::shared_ptr<TensorStorage>(new TensorStorage(Kind::meta, std::nullopt, 0, bytes, false));
}

TensorStorage::~TensorStorage() {
  if (kind_ != Kind::owned || address_ == 0) return;
  if (device_->is_cpu()) {
    std::free(reinterpret_cast<void*>(address_));
    return;
  }
  // A destructor cannot report a failure. Memory is freed only once every use is known to be ordered
  // before the free or finished: when waiting for a use fails (its event could not be recorded, say), the
  // whole device is waited for instead; only when that fails too does the memory leak.
  try {
    device_->make_current();
    std::vector<Completion> pending = state_->pending();
    const Stream* release = stream_ordered_ ? &release_stream(*device_) : nullptr;
    try {
      for (const Completion& use : pending) release ? use.order_before(*release) : use.sync();
    } catch (const Error&) {
      check(driver_api().cuCtxSynchronize(), "cuCtxSynchronize");
    }
    if (release)
      driver_api().cuMemFreeAsync(address_, release->handle());
    else
      driver_api().cuMemFree_v2(address_);
  } catch (const Error&) {
  }
}

}  // namespace cutile
