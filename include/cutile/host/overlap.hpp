// Whether two strided views of memory share a byte: by the elements they reach, not by their spans, so
// that views that interleave without sharing an element (even and odd columns, two heads of a
// (S, H, D) buffer) are told apart from views that share one.
#pragma once

#include <cstdint>
#include <span>

namespace cutile {

/// A strided view: element [0, ..., 0] at byte `address`, extents and strides in elements.
struct StridedBytes {
  uint64_t address = 0;
  std::span<const int64_t> shape, strides;
  int64_t element_size = 0;
};

/// Whether some element of `a` and some element of `b` share a byte. Exact for views whose strides nest
/// (each steps past what the smaller ones reach, as any layout of torch's does) and for many others; a
/// pair whose search runs past its budget is reported as overlapping. Views without elements overlap
/// nothing.
bool elements_overlap(const StridedBytes& a, const StridedBytes& b);

}  // namespace cutile
