// Control flow: if, for, loop, reduce and scan, and the terminators yield, continue, break and return
// against the op they leave.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

namespace {

void expect_no_views(const std::vector<Type>& types, const std::string& what) {
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].is(TypeKind::tensor_view) || is_view(types[i]))
      fail(what + " " + std::to_string(i) + " cannot be a view: " + types[i].str());
}

const Block& single_block(const Operation& op, size_t region) {
  if (op.region(region).num_blocks() != 1)
    fail("region " + std::to_string(region) + " must have exactly one block, got " +
         std::to_string(op.region(region).num_blocks()));
  return op.region(region).block(0);
}

void check_iter_values(const Operation&, const std::vector<Type>& init, const std::vector<Type>& args) {
  if (init.size() != args.size())
    fail("the body has " + std::to_string(args.size()) + " iteration arguments but " +
         std::to_string(init.size()) + " init values were given");
  expect_no_views(init, "loop-carried value");
  if (init != args)
    fail("iteration argument types " + list(args) + " must equal the init types " + list(init));
}

/// The op owning the block `op` sits in; nullptr for the kernel body.
const Operation* parent_of(const Operation& op) {
  const Block* b = op.parent_block();
  return b && b->parent_region() ? b->parent_region()->parent_op() : nullptr;
}

/// Walks out through enclosing `if`s; the first other ancestor (nullptr: the kernel body).
const Operation* ancestor_past_ifs(const Operation& op) {
  const Operation* p = parent_of(op);
  while (p && p->opcode() == Opcode::if_) p = parent_of(*p);
  return p;
}

}  // namespace

void check_if(const Operation& op) {
  if (!is_scalar_int(in(op, 0)) || scalar_element(in(op, 0)) != E::i1)
    fail("condition must be tile<i1>, got " + in(op, 0).str());
  expect_no_views(op.result_types(), "result");
  if (single_block(op, 0).num_arguments() != 0) fail("the then block must have no arguments");
  const Region& else_region = op.region(1);
  if (else_region.num_blocks() > 1) fail("the else region must have at most one block");
  if (else_region.num_blocks() == 0 && op.num_results() != 0)
    fail("an if with results " + list(op.result_types()) + " needs an else branch");
  if (else_region.num_blocks() == 1 && else_region.block(0).num_arguments() != 0)
    fail("the else block must have no arguments");
}

void check_for(const Operation& op) {
  const Type& lb = in(op, 0);
  if (!is_scalar_int(lb)) fail("lower bound must be a scalar integer tile, got " + lb.str());
  expect_same(lb, in(op, 1), "bounds and step must have one type");
  expect_same(lb, in(op, 2), "bounds and step must have one type");
  const std::vector<Type> init = types_of(group(op, 3));
  const Block& body = single_block(op, 0);
  std::vector<Type> args = body.argument_types();
  if (args.empty()) fail("the body block needs the induction variable as its first argument");
  expect_same(args[0], lb, "induction variable type must equal the bounds type");
  args.erase(args.begin());
  check_iter_values(op, init, args);
  if (op.result_types() != init)
    fail("result types " + list(op.result_types()) + " must equal the init types " + list(init));
}

void check_loop(const Operation& op) {
  check_iter_values(op, types_of(group(op, 0)), single_block(op, 0).argument_types());
  expect_no_views(op.result_types(), "result");
}

void check_aggregate(const Operation& op) {
  const bool scan = op.opcode() == Opcode::scan;
  const auto& operands = group(op, 0);
  if (operands.empty()) fail("expects at least one operand");
  if (op.num_results() != operands.size())
    fail("expects one result per operand (" + std::to_string(operands.size()) + "), got " +
         std::to_string(op.num_results()));
  const Type& first = operands[0]->type();
  for (const Value* v : operands) {
    if (!tile_of(v->type(), [](E) { return true; }))
      fail("operands must be tiles of numbers, got " + v->type().str());
    if (v->type().shape() != first.shape())
      fail("operands must have one shape: " + first.str() + " vs " + v->type().str());
  }
  const int64_t dim = op.attr("dim")->int_value;
  if (dim < 0 || dim >= first.rank())
    fail("dim " + std::to_string(dim) + " must be in [0, " + std::to_string(first.rank()) + ")");
  const Attribute& ids = *op.attr("identities");
  if (ids.elements.size() != operands.size())
    fail("expects one identity per operand (" + std::to_string(operands.size()) + "), got " +
         std::to_string(ids.elements.size()));
  for (size_t i = 0; i < operands.size(); ++i) {
    const Type& t = operands[i]->type();
    const E e = *scalar_element(t);
    const Attribute& id = ids.elements[i];
    if (id.kind != AttrKind::integer && id.kind != AttrKind::floating && id.kind != AttrKind::boolean)
      fail("identity " + std::to_string(i) + " must be a typed integer or float attribute");
    const E ide = id.kind == AttrKind::boolean ? E::i1 : id.type.element_type();
    const bool half_swap = (e == E::f16 && ide == E::bf16) || (e == E::bf16 && ide == E::f16);
    if (ide != e && !half_swap)
      fail("identity " + std::to_string(i) + " has type " + name(ide) + " but operand " + std::to_string(i) +
           " is " + t.str());
    std::vector<int64_t> shape = t.shape();
    if (!scan) shape.erase(shape.begin() + dim);
    expect_same(out(op, i), Type::tile(shape, t.element()),
                "result " + std::to_string(i) + " must be the operand " +
                    (scan ? "type" : "type without dim " + std::to_string(dim)));
  }
  const Block& body = single_block(op, 0);
  if (body.num_arguments() != 2 * operands.size())
    fail("the body needs " + std::to_string(2 * operands.size()) +
         " arguments (current, accumulator per operand), got " + std::to_string(body.num_arguments()));
  for (size_t i = 0; i < body.num_arguments(); ++i) {
    const Type want = Type::tile({}, operands[i / 2]->type().element());
    expect_same(body.argument(i)->type(), want,
                "body argument " + std::to_string(i) + " must be a rank-0 tile of operand " +
                    std::to_string(i / 2) + "'s element type");
  }
}

void check_yield(const Operation& op) {
  const Operation* p = parent_of(op);
  const std::vector<Type> got = types_of(group(op, 0));
  if (!p || (p->opcode() != Opcode::if_ && p->opcode() != Opcode::reduce && p->opcode() != Opcode::scan))
    fail("yield must terminate an 'if', 'reduce' or 'scan' region");
  if (p->opcode() == Opcode::if_) {
    if (got != p->result_types())
      fail("yields " + list(got) + " but the enclosing if has results " + list(p->result_types()));
    return;
  }
  const auto& operands = p->operand_groups().empty() ? std::vector<Value*>{} : p->operand_groups()[0];
  if (got.size() != operands.size())
    fail("yields " + std::to_string(got.size()) + " values but the enclosing " +
         std::string(p->spec().mnemonic) + " has " + std::to_string(operands.size()) + " operands");
  for (size_t i = 0; i < got.size(); ++i)
    if (!operands[i]->type().is(TypeKind::tile) || got[i] != Type::tile({}, operands[i]->type().element()))
      fail("yielded value " + std::to_string(i) + " must be a rank-0 tile of the operand element type, got " +
           got[i].str());
}

void check_continue(const Operation& op) {
  const Operation* loop = ancestor_past_ifs(op);
  if (!loop || (loop->opcode() != Opcode::for_ && loop->opcode() != Opcode::loop))
    fail("continue must be inside a 'for' or 'loop' (possibly through nested 'if's)");
  const std::vector<Type> got = types_of(group(op, 0));
  const auto& groups = loop->operand_groups();
  const std::vector<Type> want = loop->opcode() == Opcode::for_ ? loop->result_types()
                                 : groups.empty()               ? std::vector<Type>{}
                                                                : types_of(groups[0]);
  if (got != want)
    fail("continues with " + list(got) + " but the enclosing " + std::string(loop->spec().mnemonic) +
         " carries " + list(want));
}

void check_break(const Operation& op) {
  const Operation* loop = ancestor_past_ifs(op);
  if (!loop || loop->opcode() != Opcode::loop)
    fail("break must be inside a 'loop' (possibly through nested 'if's)");
  const std::vector<Type> got = types_of(group(op, 0));
  if (got != loop->result_types())
    fail("breaks with " + list(got) + " but the enclosing loop has results " + list(loop->result_types()));
}

void check_return(const Operation& op, Version version) {
  // 13.4 lets `return` leave a `loop` too; 13.3 only an `if` nested in the kernel body.
  const Operation* p = parent_of(op);
  while (p && (p->opcode() == Opcode::if_ || (version >= v13_4 && p->opcode() == Opcode::loop)))
    p = parent_of(*p);
  if (p != nullptr)
    fail(version >= v13_4 ? "return must be in the kernel body (possibly through nested 'if's and 'loop's)"
                          : "return must be in the kernel body (possibly through nested 'if's)");
  if (op.num_operands() != 0)
    fail("a kernel returns no values, got " + std::to_string(op.num_operands()) + " operands");
}

}  // namespace cutile::ir::verifier
