#include "cutile/host/layout.hpp"

#include "cutile/error.hpp"

namespace cutile {

std::vector<int64_t> row_major_strides(std::span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

int64_t numel(std::span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

bool is_contiguous(std::span<const int64_t> shape, std::span<const int64_t> strides) {
  if (numel(shape) == 0) return true;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

int64_t addressable_elements(std::span<const int64_t> shape, std::span<const int64_t> strides) {
  if (numel(shape) == 0) return 0;
  int64_t span = 1;
  for (size_t i = 0; i < shape.size(); ++i) span += (shape[i] - 1) * strides[i];
  return span;
}

void check_layout(std::span<const int64_t> shape, std::span<const int64_t> strides, int64_t element_size,
                  std::string_view what) {
  if (shape.size() > static_cast<size_t>(kMaxTensorRank))
    throw UserError(std::string(what) + " has rank " + std::to_string(shape.size()) + " (shape " + format_extents(shape) +
                    "); tensors have rank 0 to " + std::to_string(kMaxTensorRank));
  if (strides.size() != shape.size())
    throw UserError(std::string(what) + " has shape " + format_extents(shape) + " of rank " +
                    std::to_string(shape.size()) + " but strides " + format_extents(strides) + " of rank " +
                    std::to_string(strides.size()));
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      throw UserError(std::string(what) + " has a negative extent " + std::to_string(shape[i]) + " on axis " +
                      std::to_string(i) + " (shape " + format_extents(shape) + ")");
    if (strides[i] < 0)
      throw UserError(std::string(what) + " has a negative stride " + std::to_string(strides[i]) + " on axis " +
                      std::to_string(i) + " (strides " + format_extents(strides) +
                      "); tensors need non-negative strides");
  }
  // Overflow checks on the element count and on the bytes the layout can reach.
  int64_t count = 1, span = 1;
  bool overflow = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t reach = 0;
    overflow |= __builtin_mul_overflow(count, shape[i], &count);
    overflow |= shape[i] > 0 && __builtin_mul_overflow(shape[i] - 1, strides[i], &reach);
    overflow |= __builtin_add_overflow(span, reach, &span);
  }
  int64_t bytes = 0;
  overflow |= __builtin_mul_overflow(span, element_size, &bytes);
  if (overflow)
    throw UserError(std::string(what) + " with shape " + format_extents(shape) + " and strides " +
                    format_extents(strides) + " spans more bytes than int64 can count");
}

std::string format_extents(std::span<const int64_t> extents) {
  std::string text = "[";
  for (size_t i = 0; i < extents.size(); ++i) text += (i ? ", " : "") + std::to_string(extents[i]);
  return text + "]";
}

}  // namespace cutile
