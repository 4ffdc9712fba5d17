#include "cutile/host/tensor_arg.hpp"

#include "cutile/host/layout.hpp"

namespace cutile {

int64_t TensorArgView::byte_extent() const {
  return addressable_elements(shape, strides) * element_size;
}

std::string TensorArgView::describe() const {
  std::string text = std::string(ir::element_type_name(element)) + format_extents(shape) + " on " +
                     (on_cpu        ? std::string("cpu")
                      : device >= 0 ? "cuda:" + std::to_string(device)
                                    : std::string("no device (meta)"));
  if (is_partition()) text += (prefix_cover ? " prefix-partitioned by tiles " : " partitioned by tiles ") + format_extents(tile_shape);
  for (size_t i = 0; i < tile_order.size(); ++i)
    if (tile_order[i] != static_cast<int64_t>(i)) return text + " in order " + format_extents(tile_order);
  return text;
}

void TensorArgView::order_before_use(const Stream& stream, Access access,
                                     const std::function<std::string()>& name) const {
  if (!state) return;
  state->order_before_use(stream, access, [&] { return "use " + name() + " (" + describe() + ") in a launch"; },
                          borrow);
}

bool storage_overlaps(const TensorArgView& a, const TensorArgView& b) {
  if (a.device != b.device || a.on_cpu != b.on_cpu) return false;
  const int64_t a_bytes = a.byte_extent(), b_bytes = b.byte_extent();
  if (a_bytes == 0 || b_bytes == 0) return false;
  // Half-open ranges [address, address + bytes); unsigned arithmetic cannot overflow for real memory.
  return a.address < b.address + static_cast<uint64_t>(b_bytes) &&
         b.address < a.address + static_cast<uint64_t>(a_bytes);
}

}  // namespace cutile
