#include "cutile/ir/builder.hpp"

#include <cstring>

#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"

namespace cutile::ir {
namespace {

NamedAttribute named(std::string name, Attribute value) { return {std::move(name), std::move(value)}; }

Type i1_like(const Type& t) { return Type::tile(t.shape(), Type::element(ElementType::i1)); }

Type with_element(const Type& t, ElementType e) { return Type::tile(t.shape(), Type::element(e)); }

// Little-endian storage of one element, in the bytecode's dense layout.
std::vector<uint8_t> element_bytes(ElementType e, uint64_t bits) {
  if (e == ElementType::i1) return {static_cast<uint8_t>(bits ? 0xFF : 0x00)};  // splat true is 0xFF
  const int bytes = (element_bits(e) + 7) / 8;
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  for (int i = 0; i < bytes; ++i) out[static_cast<size_t>(i)] = static_cast<uint8_t>(bits >> (8 * i));
  return out;
}

}  // namespace

Operation& Builder::create(Opcode opcode, std::vector<Type> result_types,
                           std::vector<std::vector<Value*>> operand_groups, std::vector<NamedAttribute> attrs,
                           int num_regions) {
  auto op = std::make_unique<Operation>(opcode, location_);
  for (Type& t : result_types) op->add_result(std::move(t));
  for (auto& group : operand_groups) op->add_operand_group(std::move(group));
  for (NamedAttribute& a : attrs) op->set_attr(std::move(a.name), std::move(a.value));
  for (int i = 0; i < num_regions; ++i) op->add_region();
  return block_->append(std::move(op));
}

Value* Builder::create_value(Opcode opcode, Type result_type, std::vector<Value*> operands,
                             std::vector<NamedAttribute> attrs) {
  std::vector<std::vector<Value*>> groups;
  for (Value* v : operands) groups.push_back({v});
  return create(opcode, {std::move(result_type)}, std::move(groups), std::move(attrs)).result(0);
}

Value* Builder::constant(Attribute dense_value) {
  Type t = dense_value.type;
  return create_value(Opcode::constant, std::move(t), {}, {named("value", std::move(dense_value))});
}

Value* Builder::constant_int(ElementType e, int64_t value, std::vector<int64_t> shape) {
  if (!is_integer(e)) throw UserError("constant_int needs an integer element type, got " + std::string(element_type_name(e)));
  const uint64_t mask = element_bits(e) >= 64 ? ~uint64_t{0} : (uint64_t{1} << element_bits(e)) - 1;
  return constant(Attribute::dense(tile_type(std::move(shape), e), element_bytes(e, static_cast<uint64_t>(value) & mask)));
}

Value* Builder::constant_float(ElementType e, double value, std::vector<int64_t> shape) {
  if (!is_float(e)) throw UserError("constant_float needs a float element type, got " + std::string(element_type_name(e)));
  return constant(Attribute::dense(tile_type(std::move(shape), e), element_bytes(e, float_to_bits(e, value))));
}

std::array<Value*, 3> Builder::tile_block_id() {
  Type i32 = scalar_type(ElementType::i32);
  Operation& op = create(Opcode::get_tile_block_id, {i32, i32, i32}, {});
  return {op.result(0), op.result(1), op.result(2)};
}

std::array<Value*, 3> Builder::num_tile_blocks() {
  Type i32 = scalar_type(ElementType::i32);
  Operation& op = create(Opcode::get_num_tile_blocks, {i32, i32, i32}, {});
  return {op.result(0), op.result(1), op.result(2)};
}

Value* Builder::unary(Opcode opcode, Value* x, std::vector<NamedAttribute> attrs) {
  return create_value(opcode, x->type(), {x}, std::move(attrs));
}

Value* Builder::binary(Opcode opcode, Value* lhs, Value* rhs, std::vector<NamedAttribute> attrs) {
  return create_value(opcode, lhs->type(), {lhs, rhs}, std::move(attrs));
}

Value* Builder::cmpf(ComparisonPredicate predicate, Value* lhs, Value* rhs, ComparisonOrdering ordering) {
  return create_value(Opcode::cmpf, i1_like(lhs->type()), {lhs, rhs},
                      {named("comparison_predicate", Attribute::enum_of(EnumKind::comparison_predicate, predicate)),
                       named("comparison_ordering", Attribute::enum_of(EnumKind::comparison_ordering, ordering))});
}

Value* Builder::cmpi(ComparisonPredicate predicate, Value* lhs, Value* rhs, Signedness signedness) {
  return create_value(Opcode::cmpi, i1_like(lhs->type()), {lhs, rhs},
                      {named("comparison_predicate", Attribute::enum_of(EnumKind::comparison_predicate, predicate)),
                       named("signedness", Attribute::enum_of(EnumKind::signedness, signedness))});
}

Value* Builder::select(Value* condition, Value* if_true, Value* if_false) {
  return create_value(Opcode::select, if_true->type(), {condition, if_true, if_false});
}

Value* Builder::fma(Value* a, Value* b, Value* c) { return create_value(Opcode::fma, a->type(), {a, b, c}); }

Value* Builder::ftof(Value* x, ElementType to) {
  return create_value(Opcode::ftof, with_element(x->type(), to), {x});
}

Value* Builder::itof(Value* x, ElementType to, Signedness signedness) {
  return create_value(Opcode::itof, with_element(x->type(), to), {x},
                      {named("signedness", Attribute::enum_of(EnumKind::signedness, signedness))});
}

Value* Builder::ftoi(Value* x, ElementType to, Signedness signedness) {
  return create_value(Opcode::ftoi, with_element(x->type(), to), {x},
                      {named("signedness", Attribute::enum_of(EnumKind::signedness, signedness))});
}

Value* Builder::exti(Value* x, ElementType to, Signedness signedness) {
  return create_value(Opcode::exti, with_element(x->type(), to), {x},
                      {named("signedness", Attribute::enum_of(EnumKind::signedness, signedness))});
}

Value* Builder::trunci(Value* x, ElementType to) {
  return create_value(Opcode::trunci, with_element(x->type(), to), {x});
}

Value* Builder::reshape(Value* x, std::vector<int64_t> shape) {
  return create_value(Opcode::reshape, Type::tile(std::move(shape), x->type().element()), {x});
}

Value* Builder::broadcast(Value* x, std::vector<int64_t> shape) {
  return create_value(Opcode::broadcast, Type::tile(std::move(shape), x->type().element()), {x});
}

Value* Builder::permute(Value* x, std::vector<int64_t> permutation) {
  std::vector<int64_t> shape;
  for (int64_t p : permutation) shape.push_back(x->type().shape().at(static_cast<size_t>(p)));
  return create_value(Opcode::permute, Type::tile(std::move(shape), x->type().element()), {x},
                      {named("permutation", Attribute::i32_array(std::move(permutation)))});
}

Value* Builder::iota(int64_t length, ElementType e) { return create_value(Opcode::iota, tile_type({length}, e), {}); }

Value* Builder::make_token() { return create_value(Opcode::make_token, Type::token(), {}); }

Value* Builder::join_tokens(std::vector<Value*> tokens) {
  return create(Opcode::join_tokens, {Type::token()}, {std::move(tokens)}).result(0);
}

Value* Builder::assume(Value* x, Attribute predicate) {
  return create_value(Opcode::assume, x->type(), {x}, {named("predicate", std::move(predicate))});
}

Value* Builder::make_tensor_view(Value* base, Type view_type, std::vector<Value*> dynamic_shape,
                                 std::vector<Value*> dynamic_strides) {
  return create(Opcode::make_tensor_view, {std::move(view_type)},
                {{base}, std::move(dynamic_shape), std::move(dynamic_strides)})
      .result(0);
}

Value* Builder::make_partition_view(Value* tensor_view, std::vector<int32_t> tile_shape,
                                    std::optional<PaddingValue> padding, std::vector<int32_t> dim_map) {
  Type t = Type::partition_view(std::move(tile_shape), tensor_view->type(), std::move(dim_map), padding);
  return create_value(Opcode::make_partition_view, std::move(t), {tensor_view});
}

namespace {
std::vector<NamedAttribute> memory_attrs(MemoryOrdering ordering, std::optional<MemoryScope> scope,
                                         std::optional<Attribute> hints) {
  std::vector<NamedAttribute> attrs = {
      named("memory_ordering_semantics", Attribute::enum_of(EnumKind::memory_ordering, ordering))};
  if (scope) attrs.push_back(named("memory_scope", Attribute::enum_of(EnumKind::memory_scope, *scope)));
  if (hints) attrs.push_back(named("optimization_hints", std::move(*hints)));
  return attrs;
}
std::vector<Value*> optional_group(Value* v) { return v ? std::vector<Value*>{v} : std::vector<Value*>{}; }
}  // namespace

std::pair<Value*, Value*> Builder::load_view(Value* view, std::vector<Value*> index, Value* token,
                                             MemoryOrdering ordering, std::optional<MemoryScope> scope,
                                             std::optional<Attribute> hints) {
  Operation& op = create(Opcode::load_view_tko, {view->type().view_tile_type(), Type::token()},
                         {{view}, std::move(index), optional_group(token)},
                         memory_attrs(ordering, scope, std::move(hints)));
  return {op.result(0), op.result(1)};
}

Value* Builder::store_view(Value* tile, Value* view, std::vector<Value*> index, Value* token,
                           MemoryOrdering ordering, std::optional<MemoryScope> scope,
                           std::optional<Attribute> hints) {
  return create(Opcode::store_view_tko, {Type::token()}, {{tile}, {view}, std::move(index), optional_group(token)},
                memory_attrs(ordering, scope, std::move(hints)))
      .result(0);
}

Value* Builder::offset(Value* pointers, Value* offsets) {
  return create_value(Opcode::offset, pointers->type(), {pointers, offsets});
}

std::pair<Value*, Value*> Builder::load_ptr(Value* pointers, Value* mask, Value* padding, Value* token) {
  Type result = Type::tile(pointers->type().shape(), pointers->type().element().element());
  Operation& op = create(Opcode::load_ptr_tko, {std::move(result), Type::token()},
                         {{pointers}, optional_group(mask), optional_group(padding), optional_group(token)},
                         memory_attrs(MemoryOrdering::weak, std::nullopt, std::nullopt));
  return {op.result(0), op.result(1)};
}

Value* Builder::store_ptr(Value* pointers, Value* value, Value* mask, Value* token) {
  return create(Opcode::store_ptr_tko, {Type::token()},
                {{pointers}, {value}, optional_group(mask), optional_group(token)},
                memory_attrs(MemoryOrdering::weak, std::nullopt, std::nullopt))
      .result(0);
}

Value* Builder::mmaf(Value* lhs, Value* rhs, Value* acc) {
  return create_value(Opcode::mmaf, acc->type(), {lhs, rhs, acc});
}

std::vector<Value*> Builder::with_region(Operation& op, Opcode terminator, std::vector<Type> arg_types,
                                         const BodyFn& body, size_t region) {
  Block& block = op.region(region).add_block();
  std::vector<Value*> args;
  for (Type& t : arg_types) args.push_back(block.add_argument(std::move(t)));
  Block* saved = block_;
  block_ = &block;
  std::vector<Value*> carried = body ? body(*this, args) : std::vector<Value*>{};
  create(terminator, {}, {std::move(carried)});
  block_ = saved;
  std::vector<Value*> results;
  for (const auto& r : op.results()) results.push_back(r.get());
  return results;
}

namespace {
std::vector<Type> interleaved_scalar_args(const std::vector<Value*>& operands) {
  std::vector<Type> args;
  for (Value* v : operands) {
    Type s = Type::tile({}, v->type().element());
    args.push_back(s);
    args.push_back(s);
  }
  return args;
}
}  // namespace

std::vector<Value*> Builder::reduce(std::vector<Value*> operands, int64_t dim, std::vector<Attribute> identities,
                                    const BodyFn& body) {
  std::vector<Type> results;
  for (Value* v : operands) {
    std::vector<int64_t> shape = v->type().shape();
    shape.erase(shape.begin() + dim);
    results.push_back(Type::tile(std::move(shape), v->type().element()));
  }
  std::vector<Type> args = interleaved_scalar_args(operands);
  Operation& op = create(Opcode::reduce, std::move(results), {std::move(operands)},
                         {named("dim", Attribute::i32(dim)), named("identities", Attribute::array(std::move(identities)))},
                         1);
  return with_region(op, Opcode::yield, std::move(args), body);
}

std::vector<Value*> Builder::scan(std::vector<Value*> operands, int64_t dim, bool reverse,
                                  std::vector<Attribute> identities, const BodyFn& body) {
  std::vector<Type> results;
  for (Value* v : operands) results.push_back(v->type());
  std::vector<Type> args = interleaved_scalar_args(operands);
  Operation& op = create(Opcode::scan, std::move(results), {std::move(operands)},
                         {named("dim", Attribute::i32(dim)), named("reverse", Attribute::boolean(reverse)),
                          named("identities", Attribute::array(std::move(identities)))},
                         1);
  return with_region(op, Opcode::yield, std::move(args), body);
}

std::vector<Value*> Builder::for_loop(Value* lower, Value* upper, Value* step, std::vector<Value*> init,
                                      const BodyFn& body) {
  std::vector<Type> results;
  std::vector<Type> args = {lower->type()};
  for (Value* v : init) {
    results.push_back(v->type());
    args.push_back(v->type());
  }
  Operation& op = create(Opcode::for_, std::move(results), {{lower}, {upper}, {step}, std::move(init)}, {}, 1);
  return with_region(op, Opcode::continue_, std::move(args), body);
}

std::vector<Value*> Builder::loop(std::vector<Value*> init, std::vector<Type> result_types, const BodyFn& body) {
  std::vector<Type> args = types_of(init);
  Operation& op = create(Opcode::loop, std::move(result_types), {std::move(init)}, {}, 1);
  return with_region(op, Opcode::continue_, std::move(args), body);
}

void Builder::break_if(Value* condition, std::vector<Value*> values) {
  Operation& op = create(Opcode::if_, {}, {{condition}}, {}, 2);
  with_region(op, Opcode::break_, {}, [&](Builder&, std::span<Value* const>) { return values; }, 0);
}

std::vector<Value*> Builder::if_else(Value* condition, std::vector<Type> result_types, const BodyFn& then_body,
                                     const BodyFn& else_body) {
  const bool has_else = static_cast<bool>(else_body);
  if (!has_else && !result_types.empty()) throw UserError("if with results needs an else branch");
  Operation& op = create(Opcode::if_, std::move(result_types), {{condition}}, {}, 2);
  with_region(op, Opcode::yield, {}, then_body, 0);
  if (has_else) return with_region(op, Opcode::yield, {}, else_body, 1);
  std::vector<Value*> results;
  for (const auto& r : op.results()) results.push_back(r.get());
  return results;
}

void Builder::yield(std::vector<Value*> values) { create(Opcode::yield, {}, {std::move(values)}); }
void Builder::continue_(std::vector<Value*> values) { create(Opcode::continue_, {}, {std::move(values)}); }
void Builder::return_() { create(Opcode::return_, {}, {{}}); }

}  // namespace cutile::ir
