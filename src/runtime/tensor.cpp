#include "cutile/host/tensor.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "cutile/error.hpp"

namespace cutile {
namespace {

using runtime::check;
using runtime::driver_api;

// Gathers a strided layout into row-major order: `source` holds the addressable span, element 0 first.
void gather(const uint8_t* source, uint8_t* destination, std::span<const int64_t> shape,
            std::span<const int64_t> strides, int64_t element_size) {
  const size_t rank = shape.size();
  std::vector<int64_t> index(rank, 0);
  const int64_t count = numel(shape);
  int64_t offset = 0;  // in elements, of `index`
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(destination + n * element_size, source + offset * element_size,
                static_cast<size_t>(element_size));
    for (size_t axis = rank; axis-- > 0;) {  // odometer step, last axis fastest
      if (++index[axis] < shape[axis]) {
        offset += strides[axis];
        break;
      }
      offset -= (shape[axis] - 1) * strides[axis];
      index[axis] = 0;
    }
  }
}

std::string hex(uint64_t address) {
  std::ostringstream text;
  text << "0x" << std::hex << address;
  return text.str();
}

// The layout and alignment checks of borrow and lend, then `make`'s storage (TensorStorage::borrow or
// lend) for the bytes the layout reaches.
using MakeStorage = std::shared_ptr<TensorStorage> (*)(const Device&, uint64_t, int64_t);
std::shared_ptr<TensorStorage> checked_storage(MakeStorage make, ir::ElementType element, int64_t element_size,
                                               void* pointer, std::span<const int64_t> shape,
                                               std::span<const int64_t> strides, const Device& device) {
  check_layout(shape, strides, element_size, "a borrowed tensor");
  const auto address = reinterpret_cast<uint64_t>(pointer);
  if (address % static_cast<uint64_t>(element_size) != 0)
    throw UserError("cannot borrow device pointer " + hex(address) + " for " +
                    std::string(ir::element_type_name(element)) + " elements: it is not aligned to " +
                    std::to_string(element_size) + " bytes");
  return make(device, address, addressable_elements(shape, strides) * element_size);
}

}  // namespace

AnyTensor AnyTensor::empty(ir::ElementType element, int64_t element_size, std::vector<int64_t> shape,
                           const Device& device, const Stream& stream) {
  auto strides = row_major_strides(shape);
  check_layout(shape, strides, element_size, "a new tensor");
  const int64_t bytes = cutile::numel(shape) * element_size;
  return AnyTensor(TensorStorage::allocate(device, bytes, stream), element, element_size, std::move(shape),
                   std::move(strides), 0);
}

AnyTensor AnyTensor::borrow(ir::ElementType element, int64_t element_size, void* device_pointer,
                            std::vector<int64_t> shape, std::vector<int64_t> strides, const Device& device) {
  auto storage = checked_storage(&TensorStorage::borrow, element, element_size, device_pointer, shape, strides, device);
  return AnyTensor(std::move(storage), element, element_size, std::move(shape), std::move(strides), 0);
}

AnyTensor AnyTensor::lend(ir::ElementType element, int64_t element_size, void* device_pointer,
                          std::vector<int64_t> shape, std::vector<int64_t> strides, const Device& device) {
  auto storage = checked_storage(&TensorStorage::lend, element, element_size, device_pointer, shape, strides, device);
  return AnyTensor(std::move(storage), element, element_size, std::move(shape), std::move(strides), 0);
}

BorrowState& AnyTensor::borrow_state() const {
  if (!storage_->state())
    throw UserError("tensor " + describe() + " is lent to the launches of one call, ordered by its caller's "
                    "stream: it cannot be read, written or waited for from the host");
  return *storage_->state();
}

AnyTensor AnyTensor::meta(ir::ElementType element, int64_t element_size, std::vector<int64_t> shape,
                          std::vector<int64_t> strides) {
  check_layout(shape, strides, element_size, "a meta tensor");
  const int64_t bytes = addressable_elements(shape, strides) * element_size;
  return AnyTensor(TensorStorage::meta(bytes), element, element_size, std::move(shape), std::move(strides),
                   0);
}

const Device& AnyTensor::device() const {
  if (const Device* device = storage_->device()) return *device;
  throw UserError("meta tensor " + describe() + " has no device");
}

AnyTensor AnyTensor::as_strided(std::vector<int64_t> shape, std::vector<int64_t> strides,
                                int64_t offset) const {
  check_layout(shape, strides, element_size_, "a strided view of tensor " + describe());
  const int64_t start = offset_ + offset * element_size_;
  const int64_t bytes = addressable_elements(shape, strides) * element_size_;
  if (offset < 0 || (bytes > 0 && start + bytes > storage_->bytes()))
    throw UserError("a view with shape " + format_extents(shape) + ", strides " + format_extents(strides) +
                    " and offset " + std::to_string(offset) + " reaches outside the " +
                    std::to_string(storage_->bytes()) + " bytes of the storage of tensor " + describe());
  return AnyTensor(storage_, element_, element_size_, std::move(shape), std::move(strides), start);
}

TensorArgView AnyTensor::arg_view() const {
  TensorArgView view;
  view.address = region().address;
  view.element = element_;
  view.element_size = element_size_;
  view.shape = shape_;
  view.strides = strides_;
  view.device = is_meta() ? -1 : storage_->device()->index();
  if (!is_meta() && storage_->device()->is_cpu()) {
    view.on_cpu = true;
    if (std::span<uint8_t> map = storage_->initialised(); !map.empty())
      view.initialised = map.subspan(static_cast<size_t>(offset_), static_cast<size_t>(view.byte_extent()));
  }
  view.state = storage_->state();
  return view;
}

std::string AnyTensor::describe() const {
  return std::string(ir::element_type_name(element_)) + format_extents(shape_) + " on " +
         (is_meta() ? std::string("no device (meta)") : storage_->device()->describe());
}

void AnyTensor::check_has_memory(std::string_view action) const {
  if (is_meta())
    throw UserError("cannot " + std::string(action) + " meta tensor " + describe() + ": it has no memory");
}

void AnyTensor::check_stream(const Stream& stream, std::string_view action) const {
  if (!(stream.device() == device()))
    throw UserError("cannot " + std::string(action) + " tensor " + describe() + " on a stream of " +
                    stream.device().describe());
}

void AnyTensor::check_contiguous(std::string_view action) const {
  if (!is_contiguous())
    throw UserError("cannot " + std::string(action) + " tensor " + describe() + " with strides " +
                    format_extents(strides_) + ": it is not contiguous");
}

void AnyTensor::mark_initialised(int64_t bytes) {
  std::span<uint8_t> map = storage_->initialised();
  if (!map.empty()) std::fill_n(map.begin() + offset_, bytes, uint8_t{1});
}

void AnyTensor::copy_to_host(void* destination) const {
  borrow_state().wait_for_host(Access::read, region(), [&] { return "read tensor " + describe() + " with to_host()"; });
  check_has_memory("read");
  const int64_t count = numel();
  if (count == 0) return;
  if (device().is_cpu())
    return gather(reinterpret_cast<const uint8_t*>(address()), static_cast<uint8_t*>(destination), shape_, strides_,
                  element_size_);
  device().make_current();
  if (is_contiguous()) {
    check(driver_api().cuMemcpyDtoH_v2(destination, address(), static_cast<size_t>(count * element_size_)),
          "cuMemcpyDtoH_v2");
    return;
  }
  // Strided: copy the whole addressable span once, then gather on the host.
  std::vector<uint8_t> span(static_cast<size_t>(addressable_elements(shape_, strides_) * element_size_));
  check(driver_api().cuMemcpyDtoH_v2(span.data(), address(), span.size()), "cuMemcpyDtoH_v2");
  gather(span.data(), static_cast<uint8_t*>(destination), shape_, strides_, element_size_);
}

void AnyTensor::copy_from_host(const void* source, const Stream& stream) {
  check_has_memory("write");
  check_contiguous("copy host data into");
  check_stream(stream, "copy host data into");
  const BorrowState::Action action = [&] { return "write tensor " + describe() + " with copy_from_host()"; };
  const int64_t bytes = numel() * element_size_;
  if (bytes == 0) return;
  BorrowState& state = borrow_state();
  state.order_before_use(stream, Access::write, region(), action);
  if (stream.device().is_cpu()) {
    std::memcpy(data(), source, static_cast<size_t>(bytes));
    mark_initialised(bytes);
    return;
  }
  stream.device().make_current();
  // From pageable memory this returns once `source` has been staged, so the caller may reuse it.
  check(driver_api().cuMemcpyHtoDAsync_v2(address(), source, static_cast<size_t>(bytes), stream.handle()),
        "cuMemcpyHtoDAsync_v2");
  state.record_write(Completion::record(stream));
}

void AnyTensor::zero(const Stream& stream) {
  check_has_memory("zero");
  check_contiguous("zero");
  check_stream(stream, "zero");
  const BorrowState::Action action = [&] { return "zero tensor " + describe(); };
  const int64_t bytes = numel() * element_size_;
  if (bytes == 0) return;
  BorrowState& state = borrow_state();
  state.order_before_use(stream, Access::write, region(), action);
  if (stream.device().is_cpu()) {
    std::memset(data(), 0, static_cast<size_t>(bytes));
    mark_initialised(bytes);
    return;
  }
  stream.device().make_current();
  check(driver_api().cuMemsetD8Async(address(), 0, static_cast<size_t>(bytes), stream.handle()),
        "cuMemsetD8Async");
  state.record_write(Completion::record(stream));
}

}  // namespace cutile
