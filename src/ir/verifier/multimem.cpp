// The 13.5 multimem view ops: loads that reduce across, reductions into, and stores to every
// destination of a multicast-backed partition view.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

namespace {

bool is_multicast(const Type& t) { return t.ptr_attr() == PtrAttr::multicast; }

void check_multimem_element(const Type& tile) {
  const ElementType e = tile.element().element_type();
  if (is_integer(e)) {
    if (e != ElementType::i32 && e != ElementType::i64)
      fail("multimem needs 32- or 64-bit integer elements, got " + tile.str());
    return;
  }
  if (!is_arithmetic_float(e)) fail("multimem supports only f16, bf16, f32 and f64 floats, got " + tile.str());
  if (tile.num_elements() * element_bits(e) % 32 != 0)
    fail("a float multimem tile must hold a multiple of 4 bytes, got " + tile.str());
}

void check_reduction(const Operation& op, const Type& tile, bool load) {
  const auto kind = static_cast<MultimemReduction>(op.enum_attr_or_default("reduction"));
  const ElementType e = tile.element().element_type();
  const std::string kw = keyword(EnumKind::multimem_reduction, static_cast<int64_t>(kind));
  switch (kind) {
    case MultimemReduction::add: return;
    case MultimemReduction::min:
    case MultimemReduction::max:
      if (is_float(e) && !(load && (e == ElementType::f16 || e == ElementType::bf16)))
        fail("reduction " + kw + " on floats needs f16 or bf16" +
             std::string(load ? "" : " and a load-reduce (multimem_reduce_view_tko adds floats only)") + ", got " +
             tile.str());
      return;
    default:
      if (!is_integer(e)) fail("reduction " + kw + " needs integer elements, got " + tile.str());
  }
}

}  // namespace

void check_multimem_view(const Operation& op) {
  const bool load = op.opcode() == Opcode::multimem_load_reduce_view_tko;
  const bool reduce = op.opcode() == Opcode::multimem_reduce_view_tko;
  const Type& view = in(op, 0);
  if (!view.is(TypeKind::partition_view)) fail("multimem ops take a partition_view, got " + view.str());
  if (!is_multicast(view.tensor_view()))
    fail("the view's tensor_view must carry ptr_attr multicast (made from a multicast pointer), got " + view.str());
  const size_t index_group = load ? 1 : 2;
  const auto& idx = group(op, index_group);
  check_view_indices(view, idx);
  const Type& tile = load ? out(op, 0) : in(op, 1);
  expect_same(tile, view.view_tile_type(), "tile type must be the view's tile type");
  expect_token(out(op, load ? 1 : 0), "result token");
  if (auto t = optional_in(op, index_group + 1)) expect_token(*t, "token operand");
  check_multimem_element(tile);
  if (!reduce && !load) {
    check_memory_model(op, false);
  } else if (load) {
    check_memory_model(op, true);
  } else {
    const auto ordering = static_cast<MemoryOrdering>(op.enum_attr_or_default("memory_ordering_semantics"));
    if (ordering != MemoryOrdering::relaxed && ordering != MemoryOrdering::release)
      fail("multimem_reduce_view_tko memory ordering must be relaxed or release, got " +
           keyword(EnumKind::memory_ordering, static_cast<int64_t>(ordering)));
    if (!op.has_attr("memory_scope")) fail("multimem_reduce_view_tko needs a memory scope");
  }
  if (load || reduce) check_reduction(op, tile, load);
  if (const Attribute* ib = op.attr("inbounds"); ib && ib->bools.size() != idx.size())
    fail("inbounds must have one entry per index (" + std::to_string(idx.size()) + "), got " +
         std::to_string(ib->bools.size()));
}

}  // namespace cutile::ir::verifier
