// Tensors on a device (a GPU, or the CPU): a shape and strides (in elements) over shared storage, owned,
// borrowed or lent.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cutile/element.hpp"
#include "cutile/error.hpp"
#include "cutile/host/device.hpp"
#include "cutile/host/layout.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/host/tensor_arg.hpp"
#include "cutile/host/tensor_storage.hpp"

namespace cutile {

/// A tensor whose element type is a runtime value: the untyped core of Tensor<E>, for code that
/// dispatches on dtype (the C ABI, the launch path). Handles are cheap to copy and share the storage and
/// its borrow state, like torch.Tensor; the storage goes when its last handle (or partition) does.
class AnyTensor {
 public:
  /// Uninitialised memory, allocated in `stream`'s order.
  static AnyTensor empty(ir::ElementType element, int64_t element_size, std::vector<int64_t> shape,
                         const Device& device, const Stream& stream);
  /// Someone else's device memory; see Tensor<E>::borrow for the contract.
  static AnyTensor borrow(ir::ElementType element, int64_t element_size, void* device_pointer,
                          std::vector<int64_t> shape, std::vector<int64_t> strides, const Device& device);
  /// Like borrow, for memory lent to the launches of one call that the caller orders on one stream of its
  /// own (TensorStorage::lend): no borrow state is kept, so such a tensor can be partitioned and launched
  /// but not read, written or waited for from the host, and a launch whose tensors are all lent returns
  /// an empty Completion. The C ABI's tensors.
  static AnyTensor lend(ir::ElementType element, int64_t element_size, void* device_pointer,
                        std::vector<int64_t> shape, std::vector<int64_t> strides, const Device& device);
  /// Shape and strides with no memory and no device; see Tensor<E>::meta.
  static AnyTensor meta(ir::ElementType element, int64_t element_size, std::vector<int64_t> shape,
                        std::vector<int64_t> strides);

  ir::ElementType element_type() const { return element_; }
  int64_t element_size() const { return element_size_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t numel() const { return cutile::numel(shape_); }
  bool is_contiguous() const { return cutile::is_contiguous(shape_, strides_); }
  bool is_meta() const { return storage_->kind() == TensorStorage::Kind::meta; }
  bool is_borrowed() const { return storage_->kind() == TensorStorage::Kind::borrowed; }
  bool is_lent() const { return storage_->kind() == TensorStorage::Kind::lent; }

  /// The device the memory is on; a cutile::UserError for a meta tensor.
  const Device& device() const;
  /// Device address of element [0, ..., 0]; 0 for a meta tensor.
  uint64_t address() const { return is_meta() ? 0 : storage_->address() + static_cast<uint64_t>(offset_); }
  void* data() const { return reinterpret_cast<void*>(address()); }
  /// A cutile::UserError for a lent tensor, which has none.
  BorrowState& borrow_state() const;
  /// The elements this view reaches, for the borrow checks; a meta tensor's count from its storage's start.
  StridedBytes region() const {
    return {is_meta() ? static_cast<uint64_t>(offset_) : address(), shape_, strides_, element_size_};
  }

  /// A view of the same storage with another layout, starting `offset` elements after this view's first
  /// element; a cutile::UserError unless it stays inside the storage. Shares the borrow state.
  AnyTensor as_strided(std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset = 0) const;

  /// What the launch path needs to pass this tensor as a whole (not partitioned) argument.
  TensorArgView arg_view() const;
  /// "f32[64, 128] on cuda:0"
  std::string describe() const;

  /// Copies the elements in row-major order into `destination` (numel() · element_size() bytes), for any
  /// layout. Waits for the last GPU write first; a cutile::UserError while a partition is live.
  void copy_to_host(void* destination) const;
  /// Copies numel() · element_size() bytes into a contiguous tensor in `stream`'s order, after the GPU
  /// work on it that must come first; `source` may be reused on return.
  void copy_from_host(const void* source, const Stream& stream);
  /// Sets every byte of a contiguous tensor to zero in `stream`'s order.
  void zero(const Stream& stream);

 protected:
  AnyTensor(std::shared_ptr<TensorStorage> storage, ir::ElementType element, int64_t element_size,
            std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset)
      : storage_(std::move(storage)),
        element_(element),
        element_size_(element_size),
        shape_(std::move(shape)),
        strides_(std::move(strides)),
        offset_(offset) {}

 private:
  void check_has_memory(std::string_view action) const;
  void check_contiguous(std::string_view action) const;
  void check_stream(const Stream& stream, std::string_view action) const;
  /// Marks `bytes` from the first element as written in a CPU storage's map.
  void mark_initialised(int64_t bytes);

  std::shared_ptr<TensorStorage> storage_;
  ir::ElementType element_;
  int64_t element_size_;
  std::vector<int64_t> shape_, strides_;
  int64_t offset_;  ///< bytes from the storage's start to element [0, ..., 0]
};

/// How a partition's tiles meet the launch grid. exact: one block per tile, the tile grid is the launch
/// grid. prefix: the launch grid (given by LaunchOptions::grid or an exact output) covers, per axis, a
/// prefix of the tiles; tiles past it are not written and keep their contents.
enum class TileCover { exact, prefix };

template <Element E>
class Partition;

/// A tensor of E elements. tf32 has no host layout: f32 tensors feed tf32 mma inside kernels.
template <Element E>
class Tensor : public AnyTensor {
  static_assert(!std::is_same_v<E, tf32>, "tf32 has no host storage: use f32 tensors");

 public:
  /// The typed face of `any`; a cutile::UserError if its element type is not E.
  explicit Tensor(AnyTensor any) : AnyTensor(std::move(any)) {
    if (element_type() != ir_element<E>)
      throw UserError("tensor " + describe() + " is not a tensor of " + std::string(element_traits<E>::name));
  }

  /// A tensor over someone else's device memory (PyTorch's, say), which cutile never frees. The caller
  /// guarantees that `device_pointer` stays valid for as long as any handle, view, partition or queued
  /// GPU work uses it, and that nothing outside cutile writes it meanwhile (or reads it while cutile
  /// writes it): cutile tracks only the work it launches itself. Checked: rank at most 5, non-negative
  /// extents and strides, and that the driver knows the pointer as memory of `device`.
  static Tensor borrow(void* device_pointer, std::vector<int64_t> shape, std::vector<int64_t> strides,
                       const Device& device) {
    return Tensor(AnyTensor::borrow(ir_element<E>, cutile::element_size<E>, device_pointer, std::move(shape),
                                    std::move(strides), device));
  }
  /// Row-major.
  static Tensor borrow(void* device_pointer, std::vector<int64_t> shape, const Device& device) {
    auto strides = row_major_strides(shape);
    return borrow(device_pointer, std::move(shape), std::move(strides), device);
  }

  /// A description without memory or device: for ahead-of-time compilation of a specialization, shape
  /// checks and tests with no GPU. Partitions of it work; reading or launching with it is a
  /// cutile::UserError.
  static Tensor meta(std::vector<int64_t> shape, std::vector<int64_t> strides) {
    return Tensor(
        AnyTensor::meta(ir_element<E>, cutile::element_size<E>, std::move(shape), std::move(strides)));
  }
  static Tensor meta(std::vector<int64_t> shape) {
    auto strides = row_major_strides(shape);
    return meta(std::move(shape), std::move(strides));
  }

  Tensor as_strided(std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset = 0) const {
    return Tensor(AnyTensor::as_strided(std::move(shape), std::move(strides), offset));
  }

  /// The elements in row-major order, for any layout; waits for the last GPU write.
  std::vector<E> to_host() const {
    if constexpr (std::is_same_v<E, bool>) {  // std::vector<bool> has no contiguous storage
      std::vector<uint8_t> bytes(static_cast<size_t>(numel()));
      copy_to_host(bytes.data());
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<E> values(static_cast<size_t>(numel()));
      copy_to_host(values.data());
      return values;
    }
  }

  /// Overwrites a contiguous tensor with `values` (numel() of them) in `stream`'s order.
  void copy_from_host(std::span<const E> values, const Stream& stream) {
    if (static_cast<int64_t>(values.size()) != numel())
      throw UserError("cannot copy " + std::to_string(values.size()) + " host values into tensor " +
                      describe() + " of " + std::to_string(numel()) + " elements");
    AnyTensor::copy_from_host(values.data(), stream);
  }
  void copy_from_host(std::span<const E> values) { copy_from_host(values, Stream::default_stream(device())); }

  /// Partitions the tensor into tiles of `tile_shape` for use as a kernel output, and borrows its storage
  /// exclusively while the partition lives (see partition.hpp).
  Partition<E> partition(std::vector<int64_t> tile_shape) const {
    return Partition<E>(*this, std::move(tile_shape));
  }
  /// A permuted partition: tile dim i walks tensor dim order[i], so `c.partition({BN, BM}, {1, 0})` hands
  /// each block a transposed tile of c (for an Out<E, Shape<BN, BM>, Order<1, 0>>).
  Partition<E> partition(std::vector<int64_t> tile_shape, std::vector<int64_t> order) const {
    return Partition<E>(*this, std::move(tile_shape), std::move(order));
  }
  /// A partition whose launch grid may cover only a per-axis prefix of its tiles (LaunchOptions::grid, or
  /// an exact output, sets the grid; it must not exceed the tile grid on any axis). The tiles past the
  /// grid are not written. `order` as for partition (empty: in order).
  Partition<E> partition_prefix(std::vector<int64_t> tile_shape, std::vector<int64_t> order = {}) const {
    return Partition<E>(*this, std::move(tile_shape), std::move(order), TileCover::prefix);
  }
};

/// Uninitialised, row-major, allocated in `stream`'s order.
template <Element E>
Tensor<E> empty(std::vector<int64_t> shape, const Device& device, const Stream& stream) {
  return Tensor<E>(AnyTensor::empty(ir_element<E>, element_size<E>, std::move(shape), device, stream));
}
/// Uninitialised, row-major, allocated in the order of the device's default stream.
template <Element E>
Tensor<E> empty(std::vector<int64_t> shape, const Device& device) {
  return empty<E>(std::move(shape), device, Stream::default_stream(device));
}

/// All zeros (every element type's zero is all-zero bits).
template <Element E>
Tensor<E> zeros(std::vector<int64_t> shape, const Device& device, const Stream& stream) {
  Tensor<E> tensor = empty<E>(std::move(shape), device, stream);
  tensor.zero(stream);
  return tensor;
}
template <Element E>
Tensor<E> zeros(std::vector<int64_t> shape, const Device& device) {
  return zeros<E>(std::move(shape), device, Stream::default_stream(device));
}

/// A row-major copy of `values` (as many as `shape` has elements).
template <Element E>
Tensor<E> from_host(std::span<const E> values, std::vector<int64_t> shape, const Device& device,
                    const Stream& stream) {
  if (static_cast<int64_t>(values.size()) != numel(shape))
    throw UserError("from_host got " + std::to_string(values.size()) + " values for shape " +
                    format_extents(shape) + " of " + std::to_string(numel(shape)) + " elements");
  Tensor<E> tensor = empty<E>(std::move(shape), device, stream);
  tensor.copy_from_host(values, stream);
  return tensor;
}
template <Element E>
Tensor<E> from_host(std::span<const E> values, std::vector<int64_t> shape, const Device& device) {
  return from_host<E>(values, std::move(shape), device, Stream::default_stream(device));
}

namespace detail {
template <Element E, class Distribution>
Tensor<E> random_tensor(std::vector<int64_t> shape, const Device& device, uint64_t seed,
                        Distribution distribution) {
  check_layout(shape, row_major_strides(shape), element_size<E>, "a random tensor");
  std::mt19937_64 engine(seed);
  std::vector<E> values(static_cast<size_t>(numel(shape)));
  for (E& value : values) value = to_element<E>(distribution(engine));
  return from_host<E>(values, std::move(shape), device);
}
}  // namespace detail

/// Standard normal values, generated on the host with std::mt19937_64 from `seed` (so the same seed
/// gives the same tensor everywhere), rounded to E and uploaded.
template <FloatElement E>
Tensor<E> randn(std::vector<int64_t> shape, const Device& device, uint64_t seed = 0) {
  return detail::random_tensor<E>(std::move(shape), device, seed, std::normal_distribution<double>(0.0, 1.0));
}
/// Uniform values in [0, 1) before rounding to E, generated as randn's are.
template <FloatElement E>
Tensor<E> rand(std::vector<int64_t> shape, const Device& device, uint64_t seed = 0) {
  return detail::random_tensor<E>(std::move(shape), device, seed,
                                  std::uniform_real_distribution<double>(0.0, 1.0));
}

}  // namespace cutile

#include "cutile/host/partition.hpp"  // Tensor<E>::partition returns one
