// Runtime values of the interpreter: tiles as contiguous arrays in a canonical element type, tensor
// views, tile views over them, and tokens.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "cutile/ir/type.hpp"

namespace cutile::interp {

/// A tile: a shape and its elements in row-major order. Floats are held as doubles whose value is exactly
/// representable in the element type; integers as their bits zero-extended to 64 (signedness comes from
/// the op); pointers as host addresses.
struct Array {
  ir::ElementType element = ir::ElementType::f32;  ///< for pointer tiles: the pointee
  bool pointer = false;
  std::vector<int64_t> shape;
  std::vector<double> f;    ///< float element types
  std::vector<uint64_t> i;  ///< integer element types and pointers

  bool is_float() const { return !pointer && ir::is_float(element); }
  int64_t size() const { return is_float() ? static_cast<int64_t>(f.size()) : static_cast<int64_t>(i.size()); }
};

/// A zero-filled array of tile type `tile_type`.
Array make_array(const ir::Type& tile_type);
/// A zero-filled array of `element` (an element or pointer type) and shape `shape`.
Array make_array(const ir::Type& element, std::vector<int64_t> shape);
/// A zero-filled array with the element kind of `like` and shape `shape`.
Array make_like(const Array& like, std::vector<int64_t> shape);
/// Number of elements of a shape.
int64_t num_elements(const std::vector<int64_t>& shape);

/// Element k as the bit pattern it has in memory, and the element a memory bit pattern stands for
/// (i1: any nonzero byte is true).
uint64_t memory_bits(const Array& a, size_t k);
void set_from_memory_bits(Array& a, size_t k, uint64_t bits);

/// Row-major strides of a shape.
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);
/// The array of shape `shape` whose element at index v is src's element at offset + sum(v[d] * strides[d])
/// (broadcasts, permutations, sub-tiles and slices are all such copies).
Array strided_copy(const Array& src, int64_t offset, const std::vector<int64_t>& strides, std::vector<int64_t> shape);

struct TensorView {
  uint64_t base = 0;
  ir::ElementType element = ir::ElementType::f32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  ///< in elements
};

/// A partition, strided or gather/scatter view: the tensor view it looks into and its type, which carries
/// the tile shape, dim_map, traversal strides, sparse dim and padding.
struct TileView {
  TensorView tensor;
  ir::Type type;
};

struct Token {};

using RtValue = std::variant<Token, Array, TensorView, TileView>;

/// The tile a value holds (the verifier guarantees which kind each operand is).
const Array& as_array(const RtValue& v);
/// Bits of a scalar integer tile, zero-extended.
inline uint64_t scalar_bits(const RtValue& v) { return as_array(v).i.at(0); }

}  // namespace cutile::interp
