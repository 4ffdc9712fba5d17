// Shapes and strides of host-side tensors, in elements: the pure arithmetic every tensor relies on.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cutile {

/// Tile IR tensor views go up to rank 5 (the launch convention passes one shape and stride per axis).
inline constexpr int kMaxTensorRank = 5;

/// Strides of a dense row-major tensor: the last axis has stride 1.
std::vector<int64_t> row_major_strides(std::span<const int64_t> shape);

/// The number of elements; 1 for rank 0.
int64_t numel(std::span<const int64_t> shape);

/// Whether the layout is dense row-major. Axes of extent 1 may have any stride, and a tensor with no
/// elements is contiguous, as in PyTorch.
bool is_contiguous(std::span<const int64_t> shape, std::span<const int64_t> strides);

/// How many elements from the first one the layout can reach: 1 + Σ (extent_i − 1) · stride_i, or 0
/// when the tensor has no elements.
int64_t addressable_elements(std::span<const int64_t> shape, std::span<const int64_t> strides);

/// Throws cutile::UserError naming `what` unless the rank is at most kMaxTensorRank, shape and strides
/// have the same rank, extents and strides are non-negative, and the element count and addressable span
/// (in bytes of `element_size`) fit in int64.
void check_layout(std::span<const int64_t> shape, std::span<const int64_t> strides, int64_t element_size,
                  std::string_view what);

/// "[4, 8]"; "[]" for rank 0.
std::string format_extents(std::span<const int64_t> extents);

}  // namespace cutile
