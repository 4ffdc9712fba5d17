#include "interp/shape_ops.hpp"

#include <algorithm>

#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"
#include "interp/fault.hpp"
#include "interp/numeric.hpp"

namespace cutile::interp {
namespace {

using E = ir::ElementType;
using O = ir::Opcode;

// Dense constants: little-endian element bit patterns (i1 packed eight to a byte), one element when splat.
Array constant(const ir::Operation& op) {
  const ir::Attribute& value = *op.attr("value");
  Array out = make_array(op.result(0)->type());
  const E e = out.element;
  const std::vector<uint8_t>& raw = value.raw;
  const size_t n = static_cast<size_t>(out.size());
  if (e == E::i1) {
    const bool splat = raw.size() == 1 && (raw[0] == 0 || raw[0] == 0xFF);
    for (size_t k = 0; k < n; ++k) out.i[k] = splat ? (raw[0] & 1) : (raw[k / 8] >> (k % 8)) & 1;
    return out;
  }
  const int bits = ir::element_bits(e);
  const size_t width = bits <= 8 ? 1 : static_cast<size_t>((bits + 7) / 8);
  const size_t stored = raw.size() / width;
  if (stored != 1 && stored != n) throw InternalError("constant of " + op.result(0)->type().str() + " holds " + std::to_string(raw.size()) + " bytes");
  auto element_bits_at = [&](size_t k) {
    uint64_t v = 0;
    for (size_t b = 0; b < width; ++b) v |= uint64_t{raw[k * width + b]} << (8 * b);
    return v;
  };
  for (size_t k = 0; k < stored; ++k) {
    const uint64_t v = element_bits_at(k);
    if (out.is_float())
      out.f[k] = ir::bits_to_float(e, v);
    else
      out.i[k] = v & bit_mask(bits);
  }
  if (stored == 1 && n > 1) {
    if (out.is_float())
      std::fill(out.f.begin(), out.f.end(), out.f[0]);
    else
      std::fill(out.i.begin(), out.i.end(), out.i[0]);
  }
  return out;
}

Array broadcast(const Array& src, std::vector<int64_t> shape) {
  std::vector<int64_t> strides = row_major_strides(src.shape);
  for (size_t d = 0; d < shape.size(); ++d)
    if (src.shape[d] == 1 && shape[d] != 1) strides[d] = 0;
  return strided_copy(src, 0, strides, std::move(shape));
}

Array permute(const ir::Operation& op, const Array& src) {
  const std::vector<int64_t>& perm = op.attr("permutation")->ints;
  const std::vector<int64_t> src_strides = row_major_strides(src.shape);
  std::vector<int64_t> strides(perm.size()), shape(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) {
    strides[d] = src_strides[static_cast<size_t>(perm[d])];
    shape[d] = src.shape[static_cast<size_t>(perm[d])];
  }
  return strided_copy(src, 0, strides, std::move(shape));
}

// Offset of the sub-tile `index` (in units of `sub` tiles) inside a tile of shape `full`.
int64_t slice_offset(std::span<const Array* const> indices, const std::vector<int64_t>& sub,
                     const std::vector<int64_t>& full) {
  const std::vector<int64_t> strides = row_major_strides(full);
  int64_t offset = 0;
  for (size_t d = 0; d < sub.size(); ++d) {
    const uint64_t idx = indices[d]->i[0];
    if (idx >= static_cast<uint64_t>(full[d] / sub[d]))
      throw Fault("index " + std::to_string(idx) + " of dimension " + std::to_string(d) + " selects no sub-tile: " +
                  std::to_string(full[d] / sub[d]) + " sub-tiles of " + std::to_string(sub[d]) + " fit in " +
                  std::to_string(full[d]));
    offset += static_cast<int64_t>(idx) * sub[d] * strides[d];
  }
  return offset;
}

Array extract(const ir::Operation& op, std::span<const Array* const> in) {
  const Array& src = *in[0];
  std::vector<int64_t> shape = op.result(0)->type().shape();
  const int64_t offset = slice_offset(in.subspan(1), shape, src.shape);
  return strided_copy(src, offset, row_major_strides(src.shape), std::move(shape));
}

Array insert(std::span<const Array* const> in) {
  const Array& src = *in[0];
  Array out = *in[1];
  const int64_t offset = slice_offset(in.subspan(2), src.shape, out.shape);
  // Scatter: the positions of the sub-tile, found by copying an iota of destination offsets.
  Array positions;
  positions.element = E::i64;
  positions.shape = out.shape;
  positions.i.resize(static_cast<size_t>(out.size()));
  for (size_t k = 0; k < positions.i.size(); ++k) positions.i[k] = k;
  const Array where = strided_copy(positions, offset, row_major_strides(out.shape), src.shape);
  for (size_t k = 0; k < where.i.size(); ++k) {
    if (out.is_float())
      out.f[where.i[k]] = src.f[k];
    else
      out.i[where.i[k]] = src.i[k];
  }
  return out;
}

Array cat(const ir::Operation& op, const Array& a, const Array& b) {
  const size_t dim = static_cast<size_t>(op.attr("dim")->int_value);
  Array out = make_array(op.result(0)->type());
  int64_t outer = 1;
  for (size_t d = 0; d < dim; ++d) outer *= a.shape[d];
  const int64_t ca = a.size() / outer, cb = b.size() / outer;
  auto join = [&](const auto& x, const auto& y, auto& dst) {
    for (int64_t o = 0; o < outer; ++o) {
      std::copy_n(x.begin() + o * ca, ca, dst.begin() + o * (ca + cb));
      std::copy_n(y.begin() + o * cb, cb, dst.begin() + o * (ca + cb) + ca);
    }
  };
  if (out.is_float())
    join(a.f, b.f, out.f);
  else
    join(a.i, b.i, out.i);
  return out;
}

uint64_t element_bits_of(const Array& a, size_t k) { return a.is_float() ? float_bits(a.element, a.f[k]) : a.i[k]; }

// pack: the elements' bit patterns as a byte array (little-endian; i1 eight to a byte, first in bit 0).
Array pack(const ir::Operation& op, const Array& src) {
  Array out = make_array(op.result(0)->type());
  if (src.element == E::i1) {
    for (size_t k = 0; k < src.i.size(); ++k) out.i[k / 8] |= (src.i[k] & 1) << (k % 8);
    return out;
  }
  const size_t width = static_cast<size_t>(storage_bytes(src.element));
  for (size_t k = 0; k < src.i.size() + src.f.size(); ++k) {
    const uint64_t bits = element_bits_of(src, k);
    for (size_t b = 0; b < width; ++b) out.i[k * width + b] = (bits >> (8 * b)) & 0xFF;
  }
  return out;
}

Array unpack(const ir::Operation& op, const Array& src) {
  Array out = make_array(op.result(0)->type());
  const size_t n = static_cast<size_t>(out.size());
  if (out.element == E::i1) {
    for (size_t k = 0; k < n; ++k) out.i[k] = (src.i[k / 8] >> (k % 8)) & 1;
    return out;
  }
  const size_t width = static_cast<size_t>(storage_bytes(out.element));
  for (size_t k = 0; k < n; ++k) {
    uint64_t bits = 0;
    for (size_t b = 0; b < width; ++b) bits |= (src.i[k * width + b] & 0xFF) << (8 * b);
    if (out.is_float())
      out.f[k] = float_value(out.element, bits);
    else
      out.i[k] = bits;
  }
  return out;
}

}  // namespace

bool is_shape_op(ir::Opcode opcode) {
  switch (opcode) {
    case O::constant: case O::iota: case O::broadcast: case O::reshape: case O::permute: case O::extract:
    case O::insert: case O::cat: case O::pack: case O::unpack:
      return true;
    default:
      return false;
  }
}

Array eval_shape_op(const ir::Operation& op, std::span<const Array* const> in) {
  switch (op.opcode()) {
    case O::constant: return constant(op);
    case O::iota: {
      Array out = make_array(op.result(0)->type());
      const uint64_t m = bit_mask(ir::element_bits(out.element));
      for (size_t k = 0; k < out.i.size(); ++k) out.i[k] = k & m;
      return out;
    }
    case O::broadcast: return broadcast(*in[0], op.result(0)->type().shape());
    case O::reshape: {
      Array out = *in[0];
      out.shape = op.result(0)->type().shape();
      return out;
    }
    case O::permute: return permute(op, *in[0]);
    case O::extract: return extract(op, in);
    case O::insert: return insert(in);
    case O::cat: return cat(op, *in[0], *in[1]);
    case O::pack: return pack(op, *in[0]);
    case O::unpack: return unpack(op, *in[0]);
    default: throw InternalError("eval_shape_op: " + std::string(op.spec().mnemonic));
  }
}

}  // namespace cutile::interp
