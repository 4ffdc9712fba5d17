// Memory: tokens, pointer offsets, globals and alloca, tensor views and views, shape queries, and the
// loads and stores through views and pointer tiles with their memory ordering and hints.
#include "ir/verifier/rules.hpp"

#include <algorithm>

namespace cutile::ir::verifier {

void check_memory_model(const Operation& op, bool load) {
  const auto ordering = static_cast<MemoryOrdering>(op.enum_attr_or_default("memory_ordering_semantics"));
  const MemoryOrdering third = load ? MemoryOrdering::acquire : MemoryOrdering::release;
  const std::string kw = keyword(EnumKind::memory_ordering, static_cast<int64_t>(ordering));
  if (ordering != MemoryOrdering::weak && ordering != MemoryOrdering::relaxed && ordering != third)
    fail(std::string("memory ordering must be weak, relaxed or ") + (load ? "acquire" : "release") +
         ", got " + kw);
  const bool scoped = op.has_attr("memory_scope");
  if (ordering == MemoryOrdering::weak && scoped)
    fail("a weak " + std::string(load ? "load" : "store") + " must not have a memory scope");
  if (ordering != MemoryOrdering::weak && !scoped)
    fail("a " + kw + " " + (load ? "load" : "store") + " needs a memory scope");
}

void check_make_token(const Operation& op) {
  expect_token(out(op), "result");
}

void check_join_tokens(const Operation& op) {
  if (group(op, 0).size() < 2) fail("expects two or more tokens, got " + std::to_string(group(op, 0).size()));
  for (const Value* v : group(op, 0)) expect_token(v->type(), "operand");
  expect_token(out(op), "result");
}

void check_token_op(const Operation& op) {
  if (auto t = optional_in(op, 0)) expect_token(*t, "token operand");
  expect_token(out(op), "result");
}

void check_offset(const Operation& op) {
  if (!is_pointer_tile(in(op, 0))) fail("ptr must be a tile of pointers, got " + in(op, 0).str());
  expect_tile(in(op, 1), "offset", is_op_int, kInts);
  expect_same_shape(in(op, 0), in(op, 1), "ptr and offset");
  expect_same(in(op, 0), out(op), "result type must equal the ptr type");
}

void check_get_global(const Operation& op, const Module& module) {
  const std::string& sym = op.attr("name")->str;
  const Global* g = nullptr;
  for (const Global& candidate : module.globals())
    if (candidate.name == sym) g = &candidate;
  if (!g) fail("'" + sym + "' does not name a global of the module");
  if (!out(op).is_scalar_tile() || !is_pointer_tile(out(op)))
    fail("result must be a rank-0 tile of a pointer, got " + out(op).str());
  if (g->value.kind == AttrKind::dense_elements && g->value.type.is(TypeKind::tile) &&
      out(op).element().element() != g->value.type.element())
    fail("result " + out(op).str() + " does not point to the element type of global '" + sym + "' (" +
         g->value.type.str() + ")");
}

void check_alloca(const Operation& op) {
  if (!out(op).is_scalar_tile() || !is_pointer_tile(out(op)))
    fail("result must be a rank-0 tile of a pointer, got " + out(op).str());
  const int64_t n = op.attr("num_elem")->int_value;
  const int64_t align = op.attr("alignment")->int_value;
  if (n < 0) fail("num_elem must be >= 0, got " + std::to_string(n));
  const E e = out(op).element().element().element_type();
  const int64_t size = e == E::i1 ? 1 : element_bits(e) / 8;
  if (!is_pow2(align)) fail("alignment must be a power of two, got " + std::to_string(align));
  if (align < size)
    fail("alignment " + std::to_string(align) + " is below the " + std::to_string(size) + "-byte size of " +
         name(e));
}

void check_make_tensor_view(const Operation& op) {
  const Type& base = in(op, 0);
  const Type& tv = out(op);
  if (!base.is_scalar_tile() || !is_pointer_tile(base))
    fail("base must be a rank-0 tile of a pointer, got " + base.str());
  if (!tv.is(TypeKind::tensor_view)) fail("result must be a tensor_view, got " + tv.str());
  if (base.element().element() != tv.element())
    fail("base " + base.str() + " must point to the tensor_view element type " + tv.element().str());
  if (base.element().ptr_attr() != tv.ptr_attr())
    fail("the tensor_view must keep the base pointer's ptr_attr: " + base.str() + " vs " + tv.str());
  auto dynamic_count = [](const std::vector<int64_t>& v) {
    return static_cast<size_t>(std::count(v.begin(), v.end(), kDynamic));
  };
  const auto& shape = group(op, 1);
  const auto& strides = group(op, 2);
  if (shape.size() != dynamic_count(tv.shape()))
    fail("expected " + std::to_string(dynamic_count(tv.shape())) +
         " dynamic shape operands (one per '?' in " + tv.str() + "), got " + std::to_string(shape.size()));
  if (strides.size() != dynamic_count(tv.strides()))
    fail("expected " + std::to_string(dynamic_count(tv.strides())) +
         " dynamic stride operands (one per '?' in " + tv.str() + "), got " + std::to_string(strides.size()));
  std::optional<Type> common;
  for (const auto* g : {&shape, &strides})
    for (const Value* v : *g) {
      if (!is_scalar_int(v->type()))
        fail("dynamic shape and stride operands must be scalar integer tiles, got " + v->type().str());
      if (!common) common = v->type();
      if (v->type() != *common)
        fail("dynamic shape and stride operands must share one type: " + common->str() + " vs " +
             v->type().str());
    }
}

void check_make_view(const Operation& op) {
  const Type& tv = in(op, 0);
  const Type& view = out(op);
  const TypeKind want = op.opcode() == Opcode::make_partition_view ? TypeKind::partition_view
                        : op.opcode() == Opcode::make_strided_view ? TypeKind::strided_view
                                                                   : TypeKind::gather_scatter_view;
  if (!tv.is(TypeKind::tensor_view)) fail("operand must be a tensor_view, got " + tv.str());
  if (!view.is(want)) fail("result has the wrong view kind: " + view.str());
  expect_same(tv, view.tensor_view(), "the result view must wrap the operand's tensor_view type");
}

void check_shape_query(const Operation& op) {
  const Type& src = in(op, 0);
  size_t rank = 0;
  if (op.opcode() == Opcode::get_tensor_shape) {
    if (!src.is(TypeKind::tensor_view)) fail("operand must be a tensor_view, got " + src.str());
    rank = src.shape().size();
  } else {
    if (!is_view(src)) fail("operand must be a view, got " + src.str());
    rank = src.tile_shape().size();
  }
  if (op.num_results() != rank)
    fail("expected " + std::to_string(rank) + " results (one per dimension of " + src.str() + "), got " +
         std::to_string(op.num_results()));
  for (const auto& r : op.results())
    if (!is_scalar_int(r->type())) fail("results must be scalar integer tiles, got " + r->type().str());
}

/// Indices of a view access: one scalar int per tile dimension (gather views: a 1-D tile at sparse_dim).
void check_view_indices(const Type& view, const std::vector<Value*>& idx) {
  const size_t rank = view.tile_shape().size();
  if (idx.size() != rank)
    fail("expected " + std::to_string(rank) + " index operands (the tile rank of " + view.str() + "), got " +
         std::to_string(idx.size()));
  std::optional<Type> common;
  for (size_t i = 0; i < idx.size(); ++i) {
    const Type& t = idx[i]->type();
    if (view.is(TypeKind::gather_scatter_view) && static_cast<int32_t>(i) == view.sparse_dim()) {
      const int64_t want = view.tile_shape()[i];
      if (!tile_of(t, is_op_int) || t.rank() != 1 || t.shape()[0] != want)
        fail("index " + std::to_string(i) + " (the sparse dimension) must be a 1-D integer tile of length " +
             std::to_string(want) + ", got " + t.str());
      continue;
    }
    if (!is_scalar_int(t))
      fail("index " + std::to_string(i) + " must be a scalar integer tile, got " + t.str());
    if (!common) common = t;
    if (t != *common) fail("indices must share one type: " + common->str() + " vs " + t.str());
  }
}

void check_view_access(const Operation& op, Version version) {
  const bool load = op.opcode() == Opcode::load_view_tko;
  const size_t view_group = load ? 0 : 1;
  const Type& view = in(op, view_group);
  if (!is_view(view))
    fail("view operand must be a partition, strided or gather/scatter view, got " + view.str());
  if (view.tensor_view().ptr_attr() == PtrAttr::multicast)
    fail("a multicast view is accessed only by the multimem ops, got " + view.str());
  const auto& idx = group(op, view_group + 1);
  check_view_indices(view, idx);
  const Type& tile = load ? out(op, 0) : in(op, 0);
  expect_same(tile, view.view_tile_type(),
              std::string(load ? "loaded" : "stored") + " tile type must be the view's tile type");
  expect_token(out(op, load ? 1 : 0), "result token");
  if (auto t = optional_in(op, view_group + 2)) expect_token(*t, "token operand");
  check_memory_model(op, load);
  if (const Attribute* h = op.attr("optimization_hints")) check_hints(*h, {"latency", "allow_tma"}, version);
  if (const Attribute* ib = op.attr("inbounds"); ib && version >= v13_4 && ib->bools.size() != idx.size())
    fail("inbounds must have one entry per index (" + std::to_string(idx.size()) + "), got " +
         std::to_string(ib->bools.size()));
}

void check_ptr_access(const Operation& op, Version version) {
  const bool load = op.opcode() == Opcode::load_ptr_tko;
  const Type& ptrs = in(op, 0);
  if (!is_pointer_tile(ptrs)) fail("pointer operand must be a tile of pointers, got " + ptrs.str());
  if (ptrs.element().ptr_attr() == PtrAttr::multicast)
    fail("multicast pointers are accessed only through multimem view ops, got " + ptrs.str());
  const Type value_type = Type::tile(ptrs.shape(), ptrs.element().element());
  const Type& value = load ? out(op, 0) : in(op, 1);
  expect_same(
      value, value_type,
      std::string(load ? "loaded" : "stored") + " tile must match the pointer tile's shape and pointee");
  if (auto mask = optional_in(op, load ? 1 : 2))
    expect_same(*mask, Type::tile(ptrs.shape(), Type::element(E::i1)),
                "mask must be an i1 tile of the pointer shape");
  if (load)
    if (auto pad = optional_in(op, 2))
      expect_same(*pad, value_type, "padding value type must equal the loaded type");
  if (auto t = optional_in(op, 3)) expect_token(*t, "token operand");
  expect_token(out(op, load ? 1 : 0), "result token");
  check_memory_model(op, load);
  if (const Attribute* h = op.attr("optimization_hints")) check_hints(*h, {"latency"}, version);
}

}  // namespace cutile::ir::verifier
