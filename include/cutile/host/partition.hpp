// A tensor cut into disjoint tiles for use as a kernel output: one tile per tile block.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cutile/error.hpp"
#include "cutile/host/tensor.hpp"

namespace cutile {

/// The tile grid of a partition: per tile axis i ceil(extent[order[i]] / tile[i]), padded with 1 to three
/// axes. A cutile::UserError naming `tensor` unless the tensor has rank 1 to 3 (the launch grid has three
/// axes), the tile has the same rank, each tile dim is a power of two (Tile IR tile dims are) and `order`
/// is a permutation of the tensor's dims.
std::array<int64_t, 3> partition_grid(std::span<const int64_t> shape, std::span<const int64_t> tile_shape,
                                      std::span<const int64_t> order, const std::function<std::string()>& tensor);

/// 0, 1, ..., rank - 1.
inline std::vector<int64_t> identity_dims(size_t rank) {
  std::vector<int64_t> dims(rank);
  for (size_t i = 0; i < rank; ++i) dims[i] = static_cast<int64_t>(i);
  return dims;
}

/// The grid of a partition in the tensor's own order.
inline std::array<int64_t, 3> partition_grid(std::span<const int64_t> shape, std::span<const int64_t> tile_shape,
                                             const std::function<std::string()>& tensor) {
  return partition_grid(shape, tile_shape, identity_dims(shape.size()), tensor);
}

/// Move-only. While it lives it borrows its tensor's elements exclusively: using any view that shares an
/// element with them through another handle (to_host, passing it to a kernel, partitioning it again) is a
/// cutile::UserError naming the tensor; views of the same storage that share no element stay usable. It keeps the storage alive, so the tensor's other handles may go first. A lent tensor
/// (AnyTensor::lend) has no borrow state to hold: its caller orders every use on one stream.
template <Element E>
class Partition {
 public:
  /// Prefer Tensor<E>::partition and partition_prefix. `order`: tile dim i walks tensor dim order[i]
  /// (empty: in order).
  Partition(Tensor<E> tensor, std::vector<int64_t> tile_shape, std::vector<int64_t> order = {},
            TileCover cover = TileCover::exact)
      : tensor_(std::move(tensor)),
        tile_shape_(std::move(tile_shape)),
        order_(order.empty() ? identity_dims(tensor_.shape().size()) : std::move(order)),
        grid_(partition_grid(tensor_.shape(), tile_shape_, order_, [this] { return tensor_.describe(); })),
        cover_(cover),
        borrow_(tensor_.is_lent() ? kLentBorrow
                                  : tensor_.borrow_state().begin_exclusive(
                                        tensor_.region(), tile_shape_,
                                        [this] { return "partition tensor " + tensor_.describe(); })) {}

  ~Partition() { release(); }
  Partition(Partition&& other) noexcept
      : tensor_(std::move(other.tensor_)),
        tile_shape_(std::move(other.tile_shape_)),
        order_(std::move(other.order_)),
        grid_(other.grid_),
        cover_(other.cover_),
        borrow_(std::exchange(other.borrow_, 0)) {}
  Partition& operator=(Partition&& other) noexcept {
    if (this != &other) {
      release();
      tensor_ = std::move(other.tensor_);
      tile_shape_ = std::move(other.tile_shape_);
      order_ = std::move(other.order_);
      grid_ = other.grid_;
      cover_ = other.cover_;
      borrow_ = std::exchange(other.borrow_, 0);
    }
    return *this;
  }
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  const std::vector<int64_t>& tile_shape() const { return tile_shape_; }
  /// Which tensor dim each tile dim walks.
  const std::vector<int64_t>& order() const { return order_; }
  /// Tiles per axis: the launch grid an exact partition implies, the most a prefix partition allows.
  const std::array<int64_t, 3>& grid() const { return grid_; }
  TileCover cover() const { return cover_; }
  /// The partitioned tensor, for its metadata; reading its data through it is refused like any other
  /// read while the partition lives. Not for a moved-from partition.
  const Tensor<E>& tensor() const { return tensor_; }
  /// Whether this partition holds its borrow (false once moved from or unpartitioned).
  bool holds_borrow() const { return borrow_ != 0; }

  /// Ends the borrow and gives the tensor back.
  Tensor<E> unpartition() && {
    release();
    return std::move(tensor_);
  }

  /// What the launch path needs to pass this partition as an output; a cutile::UserError for a partition
  /// that no longer holds its borrow.
  TensorArgView arg_view() const {
    if (!borrow_) throw UserError("cannot use a partition after it was moved from or unpartitioned");
    TensorArgView view = tensor_.arg_view();
    view.tile_shape = tile_shape_;
    view.tile_order = order_;
    view.prefix_cover = cover_ == TileCover::prefix;
    view.borrow = borrow_;
    return view;
  }

 private:
  // Never a borrow id: BorrowState counts them up from 1.
  static constexpr uint64_t kLentBorrow = ~uint64_t{0};

  void release() noexcept {
    const uint64_t borrow = std::exchange(borrow_, 0);
    if (borrow && borrow != kLentBorrow) tensor_.borrow_state().end_exclusive(borrow);
  }

  Tensor<E> tensor_;
  std::vector<int64_t> tile_shape_;
  std::vector<int64_t> order_;
  std::array<int64_t, 3> grid_;
  TileCover cover_;
  uint64_t borrow_;
};

}  // namespace cutile
