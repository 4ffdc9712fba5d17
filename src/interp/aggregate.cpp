#include "interp/aggregate.hpp"

#include <cmath>

#include "cutile/error.hpp"
#include "interp/numeric.hpp"

namespace cutile::interp {
namespace {

struct Extents {
  int64_t outer = 1, len = 1, inner = 1;
};

Extents extents(const std::vector<int64_t>& shape, size_t dim) {
  Extents e;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < dim) e.outer *= shape[d];
    if (d == dim) e.len = shape[d];
    if (d > dim) e.inner *= shape[d];
  }
  return e;
}

std::vector<int64_t> without(const std::vector<int64_t>& shape, size_t dim) {
  std::vector<int64_t> out = shape;
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(dim));
  return out;
}

template <class T, class F>
void fold_values(const std::vector<T>& x, std::vector<T>& out, const Extents& e, T identity, bool scan, bool reverse, F f) {
  for (int64_t o = 0; o < e.outer; ++o)
    for (int64_t i = 0; i < e.inner; ++i) {
      T acc = identity;
      for (int64_t t = 0; t < e.len; ++t) {
        const int64_t k = reverse ? e.len - 1 - t : t;
        const size_t at = static_cast<size_t>((o * e.len + k) * e.inner + i);
        acc = f(x[at], acc);
        if (scan) out[at] = acc;
      }
      if (!scan) out[static_cast<size_t>(o * e.inner + i)] = acc;
    }
}

}  // namespace

Array slice(const Array& x, size_t dim, int64_t k) {
  std::vector<int64_t> strides = row_major_strides(x.shape);
  const int64_t offset = k * strides[dim];
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(dim));
  return strided_copy(x, offset, strides, without(x.shape, dim));
}

void put_slice(Array& dst, size_t dim, int64_t k, const Array& part) {
  const Extents e = extents(dst.shape, dim);
  const bool one = part.size() == 1;
  for (int64_t o = 0; o < e.outer; ++o)
    for (int64_t i = 0; i < e.inner; ++i) {
      const size_t at = static_cast<size_t>((o * e.len + k) * e.inner + i);
      const size_t from = one ? 0 : static_cast<size_t>(o * e.inner + i);
      if (dst.is_float())
        dst.f[at] = part.f[from];
      else
        dst.i[at] = part.i[from];
    }
}

Array identity_of(const ir::Attribute& identity, const Array& like) {
  Array a = make_like(like, {});
  if (a.is_float())
    a.f[0] = identity.kind == ir::AttrKind::floating ? identity.float_value() : static_cast<double>(identity.int_value);
  else
    a.i[0] = static_cast<uint64_t>(identity.int_value) & bit_mask(ir::element_bits(a.element));
  return a;
}

Array spread(const Array& value, const std::vector<int64_t>& shape) {
  if (value.size() != 1 || num_elements(shape) == 1) {
    Array out = value;
    out.shape = shape;
    return out;
  }
  return strided_copy(value, 0, std::vector<int64_t>(shape.size(), 0), shape);
}

Array fold(ir::Opcode combine, bool unsigned_, const Array& x, size_t dim, const Array& identity, bool scan, bool reverse) {
  using O = ir::Opcode;
  const Extents e = extents(x.shape, dim);
  Array out = make_like(x, scan ? x.shape : without(x.shape, dim));
  if (x.is_float()) {
    const ir::ElementType t = x.element;
    auto run = [&](auto f) { fold_values(x.f, out.f, e, identity.f[0], scan, reverse, f); };
    switch (combine) {
      case O::addf:
        if (t == ir::ElementType::f32)
          run([](double v, double acc) { return static_cast<double>(static_cast<float>(v + acc)); });
        else
          run([t](double v, double acc) { return round_to(t, v + acc); });
        break;
      case O::mulf: run([t](double v, double acc) { return round_to(t, v * acc); }); break;
      case O::maxf: run([](double v, double acc) { return max_number(v, acc); }); break;
      case O::minf: run([](double v, double acc) { return min_number(v, acc); }); break;
      default: throw InternalError("fold: " + std::string(ir::op_spec(combine).mnemonic) + " on floats");
    }
    return out;
  }
  const int w = ir::element_bits(x.element);
  const uint64_t m = bit_mask(w);
  auto run = [&](auto f) { fold_values(x.i, out.i, e, identity.i[0], scan, reverse, f); };
  switch (combine) {
    case O::addi: run([m](uint64_t v, uint64_t acc) { return (v + acc) & m; }); break;
    case O::muli: run([m](uint64_t v, uint64_t acc) { return (v * acc) & m; }); break;
    case O::andi: run([](uint64_t v, uint64_t acc) { return v & acc; }); break;
    case O::ori: run([](uint64_t v, uint64_t acc) { return v | acc; }); break;
    case O::xori: run([](uint64_t v, uint64_t acc) { return v ^ acc; }); break;
    case O::maxi:
    case O::mini: {
      const bool take_max = combine == O::maxi;
      if (unsigned_)
        run([take_max](uint64_t v, uint64_t acc) { return (v > acc) == take_max ? v : acc; });
      else
        run([w, take_max](uint64_t v, uint64_t acc) { return (sign_extend(v, w) > sign_extend(acc, w)) == take_max ? v : acc; });
      break;
    }
    default: throw InternalError("fold: " + std::string(ir::op_spec(combine).mnemonic) + " on integers");
  }
  return out;
}

}  // namespace cutile::interp
