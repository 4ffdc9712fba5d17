#include "cutile/host/tensor_arg.hpp"

#include "cutile/host/overlap.hpp"

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
  state->order_before_use(stream, access, {address, shape, strides, element_size}, [&] { return "use " + name() + " (" + describe() + ") in a launch"; },
                          borrow);
}

bool storage_overlaps(const TensorArgView& a, const TensorArgView& b) {
  if (a.device != b.device || a.on_cpu != b.on_cpu) return false;
  return elements_overlap({a.address, a.shape, a.strides, a.element_size}, {b.address, b.shape, b.strides, b.element_size});
}

}  // namespace cutile
