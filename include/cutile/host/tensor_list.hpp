// Lists of tensors for InList and OutTilesList parameters (params/list.hpp): group GEMM's As, Bs and Cs.
//
//   cutile::TensorList<f16> as({a0, a1, a2}), bs({b0, b1, b2}), cs({c0, c1, c2});
//   cutile::launch(group_gemm<...>, cs.partition({128, 128}), as, bs);
//
// A TensorList keeps its members alive and holds their descriptor rows — per member the base address,
// extents and strides as i64 words — in a tensor on their device, written once when the list is made;
// a launch passes that tensor's address and the member count. A PartitionList partitions every member
// and borrows each exclusively while it lives, as Partition does.
#pragma once

#include <string>
#include <vector>

#include "cutile/host/partition.hpp"
#include "cutile/host/tensor.hpp"

namespace cutile {

namespace detail {
/// The descriptor rows of `members`, uploaded in `stream`'s order (null: the default stream of their
/// device); a meta tensor for meta members. A cutile::UserError unless there is at least one member and
/// the members share rank (1..5) and device, or are all meta.
Tensor<int64_t> list_rows(std::span<const AnyTensor> members, const Stream* stream);
}  // namespace detail

template <Element E>
class PartitionList;

/// Tensors of one element type and rank, on one device, for an InList parameter.
template <Element E>
class TensorList {
 public:
  /// The descriptor rows are written in `stream`'s order.
  TensorList(std::vector<Tensor<E>> members, const Stream& stream)
      : members_(std::move(members)), rows_(detail::list_rows(any_members(), &stream)) {}
  /// The same on the default stream of the members' device.
  explicit TensorList(std::vector<Tensor<E>> members)
      : members_(std::move(members)), rows_(detail::list_rows(any_members(), nullptr)) {}

  size_t size() const { return members_.size(); }
  const std::vector<Tensor<E>>& members() const { return members_; }
  /// (size(), 1 + 2·rank) i64: per member its address, extents and strides.
  const Tensor<int64_t>& rows() const { return rows_; }

  /// Partitions every member into tiles of `tile_shape` for an OutTilesList parameter; each member's
  /// storage is borrowed exclusively while the PartitionList lives (a member listed twice, or two
  /// members sharing storage, is a cutile::UserError).
  PartitionList<E> partition(std::vector<int64_t> tile_shape) const {
    std::vector<Partition<E>> parts;
    parts.reserve(members_.size());
    for (const Tensor<E>& m : members_) parts.push_back(m.partition(tile_shape));
    return PartitionList<E>(std::move(parts), rows_);
  }

 private:
  std::vector<AnyTensor> any_members() const { return {members_.begin(), members_.end()}; }

  std::vector<Tensor<E>> members_;
  Tensor<int64_t> rows_;
};

/// Every member of a TensorList partitioned alike, for an OutTilesList parameter. Move-only; while it
/// lives each member's storage is borrowed exclusively.
template <Element E>
class PartitionList {
 public:
  size_t size() const { return members_.size(); }
  const std::vector<Partition<E>>& members() const { return members_; }
  const Tensor<int64_t>& rows() const { return rows_; }

 private:
  friend class TensorList<E>;
  PartitionList(std::vector<Partition<E>> members, Tensor<int64_t> rows)
      : members_(std::move(members)), rows_(std::move(rows)) {}

  std::vector<Partition<E>> members_;
  Tensor<int64_t> rows_;
};

}  // namespace cutile
