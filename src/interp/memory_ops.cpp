// Views follow the dialect: a partition view's tile i lies at i * tile_shape along the tensor dims named by
// dim_map; a strided view's at i * traversal_strides; a gather/scatter view takes the sparse dim's
// coordinates from a tile of row ids. Out-of-bounds elements of a load read the view's padding value
// (zero when it has none, where Tile IR leaves them unspecified); out-of-bounds elements of a store are
// dropped. View indices outside the index space are undefined in Tile IR and reported here.
#include "interp/memory_ops.hpp"

#include <cmath>
#include <limits>
#include <mutex>

#include "cutile/error.hpp"
#include "interp/fault.hpp"
#include "interp/numeric.hpp"

namespace cutile::interp {
namespace {

using E = ir::ElementType;
using O = ir::Opcode;
using K = ir::TypeKind;

std::string list_text(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

TensorView make_tensor_view(const ir::Operation& op, const OperandGroups& g) {
  const ir::Type& type = op.result(0)->type();
  TensorView tv;
  tv.base = scalar_bits(*g[0][0]);
  tv.element = type.element().element_type();
  tv.shape = type.shape();
  tv.strides = type.strides();
  size_t next_shape = 0, next_stride = 0;
  auto dynamic = [](const RtValue& v) {
    const Array& a = as_array(v);
    return sign_extend(a.i[0], ir::element_bits(a.element));
  };
  for (int64_t& d : tv.shape)
    if (d == ir::kDynamic) d = dynamic(*g[1].at(next_shape++));
  for (int64_t& s : tv.strides)
    if (s == ir::kDynamic) s = dynamic(*g[2].at(next_stride++));
  for (int64_t d : tv.shape)
    if (d < 0) throw Fault("tensor view extent " + std::to_string(d) + " is negative: shape " + list_text(tv.shape));
  return tv;
}

// Tile dims mapped to tensor dims: partition and strided views carry dim_map, gather views are identity.
std::vector<int32_t> dim_map_of(const ir::Type& t) {
  if (t.is(K::gather_scatter_view)) {
    std::vector<int32_t> m(t.tile_shape().size());
    for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int32_t>(i);
    return m;
  }
  return t.dim_map();
}

std::vector<int64_t> index_space(const TileView& v) {
  const std::vector<int32_t>& tile = v.type.tile_shape();
  const std::vector<int32_t> dim_map = dim_map_of(v.type);
  std::vector<int64_t> space(tile.size());
  for (size_t i = 0; i < tile.size(); ++i) {
    const int64_t extent = v.tensor.shape[static_cast<size_t>(dim_map[i])];
    const int64_t step = v.type.is(K::strided_view) ? v.type.traversal_strides()[i] : tile[i];
    space[i] = (extent + step - 1) / step;
  }
  return space;
}

struct ElementAddress {
  uint64_t address;
  bool in_bounds;
};

// Where each element of the view's tile at `index` lives, in the tile's row-major order.
std::vector<ElementAddress> view_addresses(const TileView& v, const std::vector<const RtValue*>& index) {
  const ir::Type& t = v.type;
  const std::vector<int32_t>& tile = t.tile_shape();
  const std::vector<int32_t> dim_map = dim_map_of(t);
  const size_t rank = tile.size();
  const bool gather = t.is(K::gather_scatter_view);
  const size_t sparse = gather ? static_cast<size_t>(t.sparse_dim()) : rank;
  const std::vector<int64_t> space = index_space(v);
  std::vector<uint64_t> start(rank, 0);
  bool index_ok = true;
  std::vector<int64_t> shown(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    if (i == sparse) continue;
    const uint64_t idx = scalar_bits(*index[i]);
    shown[i] = static_cast<int64_t>(idx);
    // A gather-scatter view's dense indices are element offsets (the start of a slice), whose elements
    // past the tensor are masked like the sparse rows; the other views index tiles.
    if (gather) {
      start[i] = idx;
      continue;
    }
    if (idx >= static_cast<uint64_t>(space[i])) index_ok = false;
    start[i] = idx * static_cast<uint64_t>(t.is(K::strided_view) ? t.traversal_strides()[i] : tile[i]);
  }
  if (!index_ok)
    throw Fault("view index " + list_text(shown) + " is outside the view's index space " + list_text(space) +
                " (tensor shape " + list_text(v.tensor.shape) + ", tile " +
                list_text(std::vector<int64_t>(tile.begin(), tile.end())) + ")");
  const Array* rows = gather ? &as_array(*index[sparse]) : nullptr;
  const int64_t bytes = storage_bytes(v.tensor.element);
  int64_t count = 1;
  for (int32_t d : tile) count *= d;
  std::vector<ElementAddress> out(static_cast<size_t>(count));
  std::vector<int64_t> local(rank, 0);
  for (int64_t k = 0; k < count; ++k) {
    bool in_bounds = true;
    int64_t offset = 0;
    for (size_t i = 0; i < rank; ++i) {
      const size_t d = static_cast<size_t>(dim_map[i]);
      const uint64_t coord = i == sparse ? rows->i[static_cast<size_t>(local[i])] : start[i] + static_cast<uint64_t>(local[i]);
      if (coord >= static_cast<uint64_t>(v.tensor.shape[d])) in_bounds = false;
      offset += static_cast<int64_t>(coord) * v.tensor.strides[d];
    }
    out[static_cast<size_t>(k)] = {v.tensor.base + static_cast<uint64_t>(offset * bytes), in_bounds};
    for (size_t i = rank; i-- > 0;) {
      if (++local[i] < tile[i]) break;
      local[i] = 0;
    }
  }
  return out;
}

double padding_value(std::optional<ir::PaddingValue> p) {
  if (!p) return 0.0;
  switch (*p) {
    case ir::PaddingValue::zero: return 0.0;
    case ir::PaddingValue::neg_zero: return -0.0;
    case ir::PaddingValue::nan: return std::numeric_limits<double>::quiet_NaN();
    case ir::PaddingValue::pos_inf: return std::numeric_limits<double>::infinity();
    case ir::PaddingValue::neg_inf: return -std::numeric_limits<double>::infinity();
  }
  return 0.0;
}

Array load_view(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  const TileView& v = std::get<TileView>(*g[0][0]);
  Array out = make_array(op.result(0)->type());
  const std::vector<ElementAddress> where = view_addresses(v, g[1]);
  const int bytes = storage_bytes(v.tensor.element);
  const double pad = padding_value(v.type.padding());
  for (size_t k = 0; k < where.size(); ++k) {
    if (where[k].in_bounds)
      set_from_memory_bits(out, k, memory.load(where[k].address, bytes, static_cast<int64_t>(k)));
    else if (out.is_float())
      out.f[k] = pad;
  }
  return out;
}

void store_view(const OperandGroups& g, const Memory& memory) {
  const Array& tile = as_array(*g[0][0]);
  const TileView& v = std::get<TileView>(*g[1][0]);
  const std::vector<ElementAddress> where = view_addresses(v, g[2]);
  const int bytes = storage_bytes(v.tensor.element);
  for (size_t k = 0; k < where.size(); ++k)
    if (where[k].in_bounds) memory.store(where[k].address, bytes, memory_bits(tile, k), static_cast<int64_t>(k));
}

using Mode = ir::AtomicRmwMode;

// The new memory value of an atomic read-modify-write (float elements as values, others as bits).
uint64_t combine(Mode mode, E e, uint64_t old_bits, uint64_t arg_bits) {
  const int w = ir::element_bits(e);
  const uint64_t m = bit_mask(w);
  switch (mode) {
    case Mode::and_: return old_bits & arg_bits;
    case Mode::or_: return old_bits | arg_bits;
    case Mode::xor_: return old_bits ^ arg_bits;
    case Mode::add: return (old_bits + arg_bits) & m;
    case Mode::addf: return float_bits(e, round_to(e, float_value(e, old_bits) + float_value(e, arg_bits)));
    case Mode::max: return sign_extend(old_bits, w) >= sign_extend(arg_bits, w) ? old_bits : arg_bits;
    case Mode::min: return sign_extend(old_bits, w) <= sign_extend(arg_bits, w) ? old_bits : arg_bits;
    case Mode::umax: return old_bits >= arg_bits ? old_bits : arg_bits;
    case Mode::umin: return old_bits <= arg_bits ? old_bits : arg_bits;
    case Mode::xchg: return arg_bits;
  }
  return old_bits;
}

// One atomic update of the element at `address`; returns the old bits.
uint64_t atomic_update(const Memory& memory, uint64_t address, int bytes, int64_t element, auto&& next) {
  std::lock_guard lock(memory.lock_for(address));
  const uint64_t old_bits = memory.load(address, bytes, element);
  if (auto bits = next(old_bits)) memory.store(address, bytes, *bits, element);
  return old_bits;
}

void atomic_red_view(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  const TileView& v = std::get<TileView>(*g[0][0]);
  const Array& value = as_array(*g[2][0]);
  const Mode mode = static_cast<Mode>(op.enum_attr_or_default("mode"));
  const std::vector<ElementAddress> where = view_addresses(v, g[1]);
  const int bytes = storage_bytes(v.tensor.element);
  for (size_t k = 0; k < where.size(); ++k) {
    if (!where[k].in_bounds) continue;
    const uint64_t arg = memory_bits(value, k);
    atomic_update(memory, where[k].address, bytes, static_cast<int64_t>(k),
                  [&](uint64_t old) { return std::optional(combine(mode, v.tensor.element, old, arg)); });
  }
}

bool active(const std::vector<const RtValue*>& mask, size_t k) {
  if (mask.empty()) return true;
  const Array& m = as_array(*mask[0]);
  return m.i[m.i.size() == 1 ? 0 : k] != 0;
}

uint64_t pointer_at(const Array& pointers, size_t k) { return pointers.i[pointers.i.size() == 1 ? 0 : k]; }

Array load_ptr(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  const Array& pointers = as_array(*g[0][0]);
  Array out = make_array(op.result(0)->type());
  const int bytes = storage_bytes(out.element);
  const Array* pad = g[2].empty() ? nullptr : &as_array(*g[2][0]);
  for (size_t k = 0; k < static_cast<size_t>(out.size()); ++k) {
    if (active(g[1], k)) {
      set_from_memory_bits(out, k, memory.load(pointer_at(pointers, k), bytes, static_cast<int64_t>(k)));
    } else if (pad) {  // without a padding operand masked elements are undefined: they read as zero
      if (out.is_float())
        out.f[k] = pad->f[pad->f.size() == 1 ? 0 : k];
      else
        out.i[k] = pad->i[pad->i.size() == 1 ? 0 : k];
    }
  }
  return out;
}

void store_ptr(const OperandGroups& g, const Memory& memory) {
  const Array& pointers = as_array(*g[0][0]);
  const Array& value = as_array(*g[1][0]);
  const int bytes = storage_bytes(value.element);
  for (size_t k = 0; k < static_cast<size_t>(value.size()); ++k)
    if (active(g[2], k)) memory.store(pointer_at(pointers, k), bytes, memory_bits(value, k), static_cast<int64_t>(k));
}

Array atomic_rmw(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  const Array& pointers = as_array(*g[0][0]);
  const Array& arg = as_array(*g[1][0]);
  const Mode mode = static_cast<Mode>(op.enum_attr_or_default("mode"));
  Array out = make_array(op.result(0)->type());
  const int bytes = storage_bytes(out.element);
  for (size_t k = 0; k < static_cast<size_t>(out.size()); ++k) {
    if (!active(g[2], k)) continue;  // masked-off results are undefined: zero
    const uint64_t a = memory_bits(arg, k);
    const uint64_t old = atomic_update(memory, pointer_at(pointers, k), bytes, static_cast<int64_t>(k),
                                       [&](uint64_t o) { return std::optional(combine(mode, out.element, o, a)); });
    set_from_memory_bits(out, k, old);
  }
  return out;
}

Array atomic_cas(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  const Array& pointers = as_array(*g[0][0]);
  const Array& cmp = as_array(*g[1][0]);
  const Array& val = as_array(*g[2][0]);
  Array out = make_array(op.result(0)->type());
  const int bytes = storage_bytes(out.element);
  for (size_t k = 0; k < static_cast<size_t>(out.size()); ++k) {
    if (!active(g[3], k)) continue;
    const uint64_t expected = memory_bits(cmp, k), desired = memory_bits(val, k);
    const uint64_t old = atomic_update(memory, pointer_at(pointers, k), bytes, static_cast<int64_t>(k),
                                       [&](uint64_t o) { return o == expected ? std::optional(desired) : std::nullopt; });
    set_from_memory_bits(out, k, old);
  }
  return out;
}

Array scalar_of(const ir::Type& type, int64_t value) {
  Array a = make_array(type);
  a.i[0] = static_cast<uint64_t>(value) & bit_mask(ir::element_bits(a.element));
  return a;
}

}  // namespace

bool is_memory_op(ir::Opcode opcode) {
  switch (opcode) {
    case O::make_tensor_view: case O::make_partition_view: case O::make_strided_view:
    case O::make_gather_scatter_view: case O::get_tensor_shape: case O::get_index_space_shape:
    case O::load_view_tko: case O::store_view_tko: case O::atomic_red_view_tko: case O::load_ptr_tko:
    case O::store_ptr_tko: case O::atomic_rmw_tko: case O::atomic_cas_tko:
      return true;
    default:
      return false;
  }
}

std::vector<RtValue> eval_memory_op(const ir::Operation& op, const OperandGroups& g, const Memory& memory) {
  switch (op.opcode()) {
    case O::make_tensor_view: return {make_tensor_view(op, g)};
    case O::make_partition_view:
    case O::make_strided_view:
    case O::make_gather_scatter_view:
      return {TileView{std::get<TensorView>(*g[0][0]), op.result(0)->type()}};
    case O::get_tensor_shape:
    case O::get_index_space_shape: {
      const RtValue& src = *g[0][0];
      const std::vector<int64_t> shape = op.opcode() == O::get_tensor_shape ? std::get<TensorView>(src).shape
                                                                            : index_space(std::get<TileView>(src));
      std::vector<RtValue> out;
      for (size_t i = 0; i < op.num_results(); ++i) out.emplace_back(scalar_of(op.result(i)->type(), shape[i]));
      return out;
    }
    case O::load_view_tko: return {load_view(op, g, memory), Token{}};
    case O::store_view_tko: store_view(g, memory); return {Token{}};
    case O::atomic_red_view_tko: atomic_red_view(op, g, memory); return {Token{}};
    case O::load_ptr_tko: return {load_ptr(op, g, memory), Token{}};
    case O::store_ptr_tko: store_ptr(g, memory); return {Token{}};
    case O::atomic_rmw_tko: return {atomic_rmw(op, g, memory), Token{}};
    case O::atomic_cas_tko: return {atomic_cas(op, g, memory), Token{}};
    default: throw InternalError("eval_memory_op: " + std::string(op.spec().mnemonic));
  }
}

}  // namespace cutile::interp
