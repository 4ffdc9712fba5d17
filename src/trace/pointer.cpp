// Pointer tiles from index tiles, and the masked pointer loads and stores on them (cuTile Python's
// gather/scatter lowering): indices widen to i64 so that index · stride cannot wrap, and compare unsigned
// against the extents, so a negative index is out of bounds rather than a read before the tensor.
#include "cutile/gather.hpp"

#include <algorithm>

#include "cutile/error.hpp"
#include "cutile/params/base.hpp"
#include "cutile/params/raw_ptr.hpp"

namespace cutile::detail {
namespace {

using E = ir::ElementType;

// `scalar` (rank 0) repeated to `shape`.
ir::Value* splat(ir::Builder& b, ir::Value* scalar, const std::vector<int64_t>& shape) {
  if (shape.empty()) return scalar;
  ir::Value* v = b.reshape(scalar, std::vector<int64_t>(shape.size(), 1));
  for (int64_t d : shape)
    if (d != 1) return b.broadcast(v, shape);
  return v;
}

ir::Value* to_i64(ir::Builder& b, ir::Value* x) {
  return x->type().element().element_type() == E::i64 ? x : b.exti(x, E::i64, ir::Signedness::signed_);
}

ir::Value* both(ir::Builder& b, ir::Value* x, ir::Value* y) { return x ? b.binary(ir::Opcode::andi, x, y) : y; }

// The ordering, its scope (none for weak) and the latency hint, the only hint pointer loads and stores take.
std::vector<ir::NamedAttribute> memory_attrs(const MemoryOrdering& ordering, std::optional<int> latency,
                                             const std::source_location& where) {
  std::vector<ir::NamedAttribute> attrs = {
      {"memory_ordering_semantics", ir::Attribute::enum_of(ir::EnumKind::memory_ordering, ordering.ordering())}};
  if (const auto scope = ordering.scope())
    attrs.push_back({"memory_scope", ir::Attribute::enum_of(ir::EnumKind::memory_scope, *scope)});
  if (latency) {
    if (*latency < 1 || *latency > 10)
      throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) +
                      ": the latency hint of a gather or scatter must be in 1..10, got " + std::to_string(*latency));
    attrs.push_back({"optimization_hints", *access_hints({.latency = latency, .allow_tma = std::nullopt})});
  }
  return attrs;
}

std::vector<ir::Value*> optional_group(ir::Value* v) { return v ? std::vector<ir::Value*>{v} : std::vector<ir::Value*>{}; }

}  // namespace

PointerTile pointer_tile(ir::Builder& b, const Addressing& a, const std::vector<ir::Value*>& indices,
                         const std::vector<int64_t>& shape, ir::Value* user_mask) {
  ir::Value* offset = nullptr;
  ir::Value* mask = user_mask;
  for (size_t d = 0; d < indices.size(); ++d) {
    ir::Value* index = to_i64(b, indices[d]);
    if (!a.limits.empty())
      mask = both(b, mask,
                  b.cmpi(ir::ComparisonPredicate::less_than, index, b.constant_int(E::i64, a.limits[d], shape),
                         ir::Signedness::unsigned_));
    if (!a.origins.empty()) index = b.binary(ir::Opcode::addi, index, splat(b, to_i64(b, a.origins[d]), shape));
    mask = both(b, mask,
                b.cmpi(ir::ComparisonPredicate::less_than, index, splat(b, to_i64(b, a.extents[d]), shape),
                       ir::Signedness::unsigned_));
    ir::Value* term = a.strides[d] ? b.binary(ir::Opcode::muli, index, splat(b, to_i64(b, a.strides[d]), shape)) : index;
    offset = offset ? b.binary(ir::Opcode::addi, offset, term) : term;
  }
  ir::Value* pointers = b.offset(splat(b, a.base, shape), offset);
  // A one-element access (an index that is a scalar) states the element's own alignment, as cuTile Python's
  // lowering of a scalar-indexed gather or scatter does; it holds for every pointer to an element.
  const int element_bytes = ir::element_bits(a.base->type().element().element().element_type()) / 8;
  if (std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d == 1; }) && element_bytes > 1)
    pointers = b.assume(pointers, ir::Attribute::div_by(element_bytes));
  return {pointers, mask};
}

PointerTile raw_pointer_tile(ir::Builder& b, ir::Value* base, ir::Value* offsets, const std::vector<int64_t>& shape,
                             ir::Value* mask) {
  return {b.offset(splat(b, base, shape), to_i64(b, offsets)), mask};
}

std::pair<ir::Value*, ir::Value*> masked_load(ir::Builder& b, const PointerTile& p, double padding,
                                              std::optional<int> latency, ir::Value* token,
                                              const std::source_location& where, const LoadOrdering& ordering) {
  const std::vector<int64_t>& shape = p.pointers->type().shape();
  const E element = p.pointers->type().element().element().element_type();
  // Padding only with a mask: an unmasked load reads every element.
  ir::Value* pad = !p.mask                  ? nullptr
                   : ir::is_float(element) ? b.constant_float(element, padding, shape)
                                           : b.constant_int(element, static_cast<int64_t>(padding), shape);
  ir::Operation& op =
      b.create(ir::Opcode::load_ptr_tko, {ir::tile_type(shape, element), ir::Type::token()},
               {{p.pointers}, optional_group(p.mask), optional_group(pad), optional_group(token)},
               memory_attrs(ordering, latency, where));
  return {op.result(0), op.result(1)};
}

ir::Value* masked_store(ir::Builder& b, const PointerTile& p, ir::Value* value, std::optional<int> latency,
                        ir::Value* token, const std::source_location& where, const StoreOrdering& ordering) {
  return b
      .create(ir::Opcode::store_ptr_tko, {ir::Type::token()},
              {{p.pointers}, {value}, optional_group(p.mask), optional_group(token)},
              memory_attrs(ordering, latency, where))
      .result(0);
}

}  // namespace cutile::detail
