#include "interp/value.hpp"

#include "cutile/error.hpp"
#include "interp/numeric.hpp"

namespace cutile::interp {

int64_t num_elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Array make_array(const ir::Type& tile_type) { return make_array(tile_type.element(), tile_type.shape()); }

Array make_array(const ir::Type& element, std::vector<int64_t> shape) {
  Array like;
  like.pointer = element.is(ir::TypeKind::pointer);
  like.element = like.pointer ? element.element().element_type() : element.element_type();
  return make_like(like, std::move(shape));
}

Array make_like(const Array& like, std::vector<int64_t> shape) {
  Array a;
  a.element = like.element;
  a.pointer = like.pointer;
  a.shape = std::move(shape);
  const size_t n = static_cast<size_t>(num_elements(a.shape));
  if (a.is_float())
    a.f.assign(n, 0.0);
  else
    a.i.assign(n, 0);
  return a;
}

const Array& as_array(const RtValue& v) {
  if (const Array* a = std::get_if<Array>(&v)) return *a;
  throw InternalError("interpreter: operand is not a tile");
}

uint64_t memory_bits(const Array& a, size_t k) { return a.is_float() ? float_bits(a.element, a.f[k]) : a.i[k]; }

void set_from_memory_bits(Array& a, size_t k, uint64_t bits) {
  if (a.is_float())
    a.f[k] = float_value(a.element, bits);
  else if (!a.pointer && a.element == ir::ElementType::i1)
    a.i[k] = (bits & 0xFF) != 0;
  else
    a.i[k] = bits;
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

namespace {

template <class T>
void copy_strided(const std::vector<T>& src, int64_t offset, const std::vector<int64_t>& strides,
                  const std::vector<int64_t>& shape, std::vector<T>& dst) {
  const size_t rank = shape.size();
  if (dst.empty()) return;
  if (rank == 0) {
    dst[0] = src[static_cast<size_t>(offset)];
    return;
  }
  // Odometer over all but the innermost dimension; the innermost runs as a plain loop.
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = shape[rank - 1], inner_stride = strides[rank - 1];
  const int64_t outer = static_cast<int64_t>(dst.size()) / inner;
  size_t out = 0;
  for (int64_t o = 0; o < outer; ++o) {
    int64_t base = offset;
    for (size_t d = 0; d + 1 < rank; ++d) base += index[d] * strides[d];
    for (int64_t j = 0; j < inner; ++j) dst[out++] = src[static_cast<size_t>(base + j * inner_stride)];
    for (size_t d = rank - 1; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Array strided_copy(const Array& src, int64_t offset, const std::vector<int64_t>& strides, std::vector<int64_t> shape) {
  Array out = make_like(src, std::move(shape));
  if (src.is_float())
    copy_strided(src.f, offset, strides, out.shape, out.f);
  else
    copy_strided(src.i, offset, strides, out.shape, out.i);
  return out;
}

}  // namespace cutile::interp
