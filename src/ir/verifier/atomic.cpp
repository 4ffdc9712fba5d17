// Atomics: read-modify-write and compare-and-swap through pointer tiles, reductions into views; their
// modes, element types and memory orderings.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

namespace {

void check_atomic_ordering(const Operation& op) {
  const auto o = static_cast<MemoryOrdering>(op.enum_attr_or_default("memory_ordering_semantics"));
  if (o == MemoryOrdering::weak)
    fail("atomic memory ordering must be relaxed, acquire, release or acq_rel, got weak");
}

/// Element types per atomic mode.
void check_atomic_mode(AtomicRmwMode mode, E e) {
  const std::string m = keyword(EnumKind::atomic_mode, static_cast<int64_t>(mode));
  switch (mode) {
    case AtomicRmwMode::addf:
      if (!is_arithmetic_float(e))
        fail("atomic mode '" + m + "' works only with f16, bf16, f32 and f64, got " + name(e));
      return;
    case AtomicRmwMode::xchg:
      if (element_bits(e) != 32 && element_bits(e) != 64)
        fail("atomic mode '" + m + "' works only with 32- or 64-bit integers and floats, got " + name(e));
      return;
    default:
      if (e != E::i32 && e != E::i64)
        fail("atomic mode '" + m + "' works only with i32 and i64, got " + name(e));
  }
}

}  // namespace

void check_atomic(const Operation& op) {
  const bool cas = op.opcode() == Opcode::atomic_cas_tko;
  const Type& ptrs = in(op, 0);
  if (!is_pointer_tile(ptrs)) fail("pointers must be a tile of pointers, got " + ptrs.str());
  const Type& value = in(op, cas ? 2 : 1);
  if (!value.is(TypeKind::tile) || !value.element().is(TypeKind::element))
    fail("value must be a tile of numbers, got " + value.str());
  expect_same_shape(ptrs, value, "pointers and value");
  if (ptrs.element().element() != value.element())
    fail("pointee of " + ptrs.str() + " must equal the element type of " + value.str());
  if (cas) expect_same(in(op, 1), value, "cmp and val types must match");
  expect_same(out(op, 0), value, "result type must equal the value type");
  expect_token(out(op, 1), "result token");
  if (auto mask = optional_in(op, cas ? 3 : 2))
    expect_same(*mask, Type::tile(ptrs.shape(), Type::element(E::i1)),
                "mask must be an i1 tile of the pointer shape");
  if (auto t = optional_in(op, cas ? 4 : 3)) expect_token(*t, "token operand");
  const E e = value.element().element_type();
  if (cas) {
    if (element_bits(e) != 32 && element_bits(e) != 64)
      fail("atomic_cas_tko works only with 32- or 64-bit integers and floats, got " + name(e));
  } else {
    check_atomic_mode(static_cast<AtomicRmwMode>(op.enum_attr_or_default("mode")), e);
  }
  check_atomic_ordering(op);
}

void check_atomic_red_view(const Operation& op) {
  const Type& view = in(op, 0);
  if (!view.is(TypeKind::partition_view) && !view.is(TypeKind::strided_view))
    fail("view must be a partition or strided view, got " + view.str());
  if (view.padding())
    fail("views with a padding value are not supported by atomic reductions: " + view.str());
  check_view_indices(view, group(op, 1));
  if (const Attribute* ib = op.attr("inbounds"); ib && ib->bools.size() != group(op, 1).size())
    fail("inbounds must have one entry per index (" + std::to_string(group(op, 1).size()) + "), got " +
         std::to_string(ib->bools.size()));
  const Type& value = in(op, 2);
  expect_same(value, view.view_tile_type(), "value type must be the view's tile type");
  if (auto t = optional_in(op, 3)) expect_token(*t, "token operand");
  expect_token(out(op), "result token");
  const auto mode = static_cast<AtomicRmwMode>(op.enum_attr_or_default("mode"));
  if (mode == AtomicRmwMode::xchg) fail("atomic_red_view_tko cannot use mode 'xchg'");
  check_atomic_mode(mode, value.element().element_type());
  if (op.enum_attr_or_default("memory_ordering_semantics") != static_cast<int64_t>(MemoryOrdering::relaxed))
    fail("atomic_red_view_tko supports only 'relaxed' memory ordering");
  if (op.enum_attr_or_default("memory_scope") == static_cast<int64_t>(MemoryScope::sys))
    fail("atomic_red_view_tko does not support memory scope 'sys' (use tl_blk or device)");
}

}  // namespace cutile::ir::verifier
