// What the launch path sees of a tensor or partition argument: its memory, layout, device and borrow
// state, with the element type as a runtime value.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cutile/host/borrow_state.hpp"
#include "cutile/host/dims.hpp"
#include "cutile/ir/type.hpp"

namespace cutile {

/// Made by Tensor<E>::arg_view() and Partition<E>::arg_view(); holds the borrow state, not the storage,
/// so the tensor or partition it came from must outlive the launch that uses it.
struct TensorArgView {
  uint64_t address = 0;  ///< device address of element [0, ..., 0] (meta: its byte offset); 0 without elements
  ir::ElementType element = ir::ElementType::f32;
  int64_t element_size = 0;             ///< bytes per element in memory
  Dims shape, strides;                  ///< in elements
  int device = -1;                      ///< device ordinal; -1 for a meta tensor, which has no memory
  bool on_cpu = false;                  ///< memory of Device::cpu() (host memory; device is 0)
  std::span<uint8_t> initialised;       ///< CPU memory: which of the byte_extent() bytes were written
  std::shared_ptr<BorrowState> state;  ///< null for lent memory (AnyTensor::lend): nothing to check or record
  Dims tile_shape;                  ///< a partition's tile; empty for a whole tensor
  Dims tile_order;                  ///< a partition's order (tile dim i walks tensor dim tile_order[i])
  bool prefix_cover = false;        ///< a prefix partition: the launch grid may cover fewer of its tiles
  uint64_t borrow = 0;              ///< the exclusive borrow a partition holds; 0 for a whole tensor

  bool is_partition() const { return borrow != 0; }
  /// Bytes from `address` that the layout can reach: (1 + Σ (d_i − 1)·s_i) · element_size.
  int64_t byte_extent() const;
  /// "f32[64, 128] on cuda:0", "... partitioned by tiles [16, 32]" for a partition.
  std::string describe() const;

  /// state->order_before_use for this argument, as its own borrow's holder (nothing for lent memory);
  /// `name` (built only for a message) prefixes the tensor, e.g. "argument 'x'".
  void order_before_use(const Stream& stream, Access access, const std::function<std::string()>& name) const;
};

/// Whether some element of one and some element of the other share a byte on one device (overlap.hpp):
/// two strided views that interleave without sharing an element (even and odd columns, say) do not.
/// Tensors without elements overlap nothing.
bool storage_overlaps(const TensorArgView& a, const TensorArgView& b);

}  // namespace cutile
