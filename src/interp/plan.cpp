#include "interp/plan.hpp"

#include <unordered_map>

#include "cutile/error.hpp"
#include "interp/elementwise.hpp"
#include "interp/memory_ops.hpp"
#include "interp/shape_ops.hpp"

namespace cutile::interp {
namespace {

using E = ir::ElementType;
using O = ir::Opcode;

bool supported_op(O opcode) {
  if (is_elementwise(opcode) || is_shape_op(opcode) || is_memory_op(opcode)) return true;
  switch (opcode) {
    case O::mmaf: case O::mmai: case O::if_: case O::for_: case O::loop: case O::reduce: case O::scan:
    case O::yield: case O::continue_: case O::break_: case O::return_: case O::assert_: case O::print_tko:
    case O::assume: case O::make_token: case O::join_tokens: case O::get_tile_block_id:
    case O::get_num_tile_blocks: case O::get_global: case O::gdc_wait_tko: case O::gdc_launch_dependents_tko:
    case O::memory_fence_alias_tko:
      return true;
    default:
      return false;
  }
}

bool supported_element(E e) {
  switch (e) {
    case E::i1: case E::i8: case E::i16: case E::i32: case E::i64: case E::f16: case E::bf16: case E::f32:
    case E::tf32: case E::f64: case E::f8e4m3fn: case E::f8e5m2:
      return true;
    default:
      return false;
  }
}

// The element type a type stores or points to, if it has one.
std::optional<E> element_of(const ir::Type& t) {
  switch (t.kind()) {
    case ir::TypeKind::element: return t.element_type();
    case ir::TypeKind::pointer:
    case ir::TypeKind::tile:
    case ir::TypeKind::tensor_view: return element_of(t.element());
    case ir::TypeKind::partition_view:
    case ir::TypeKind::gather_scatter_view:
    case ir::TypeKind::strided_view: return element_of(t.tensor_view());
    default: return std::nullopt;
  }
}

std::string where(const ir::Location& loc) { return "(at " + loc.str() + ")"; }

void check_type(const ir::Type& t, std::string_view what, const ir::Location& loc) {
  if (auto e = element_of(t); e && !supported_element(*e))
    throw UserError("the CPU interpreter does not support element type " + std::string(ir::element_type_name(*e)) +
                    " (" + std::string(what) + ") " + where(loc));
}

// reduce/scan body `yield(op(arg0, arg1))` (either argument order) with default attributes on op.
const ir::Operation* single_combine(const ir::Operation& op) {
  if (op.num_operands() != 1) return nullptr;
  const ir::Block& body = op.region(0).block(0);
  if (body.operations().size() != 2) return nullptr;
  const ir::Operation& c = *body.operations()[0];
  const ir::Operation& y = *body.operations()[1];
  if (y.num_operands() != 1 || y.operand(0) != c.result(0) || c.num_operands() != 2) return nullptr;
  const bool signedness_only = c.attrs().size() == 1 && c.attrs()[0].name == "signedness";
  if (!c.attrs().empty() && !signedness_only) return nullptr;
  const bool args = (c.operand(0) == body.argument(0) && c.operand(1) == body.argument(1)) ||
                    (c.operand(0) == body.argument(1) && c.operand(1) == body.argument(0));
  if (!args) return nullptr;
  switch (c.opcode()) {
    case O::addf: case O::mulf: case O::maxf: case O::minf: case O::addi: case O::muli: case O::andi:
    case O::ori: case O::xori:
      return c.attrs().empty() ? &c : nullptr;
    case O::maxi: case O::mini:
      return &c;
    default:
      return nullptr;
  }
}

class Planner {
 public:
  int slot(const ir::Value* v) {
    return slots_.emplace(v, static_cast<int>(slots_.size())).first->second;
  }
  int lookup(const ir::Value* v) const {
    auto it = slots_.find(v);
    if (it == slots_.end()) throw InternalError("interpreter: an operand is used before it is defined");
    return it->second;
  }
  int size() const { return static_cast<int>(slots_.size()); }

  BlockPlan block(const ir::Block& b) {
    BlockPlan plan;
    plan.present = true;
    for (const auto& arg : b.arguments()) plan.arguments.push_back(slot(arg.get()));
    for (const auto& op : b.operations()) plan.steps.push_back(step(*op));
    return plan;
  }

  Step step(const ir::Operation& op) {
    if (!supported_op(op.opcode()))
      throw UserError("the CPU interpreter does not support " + std::string(op.spec().mnemonic) + " " + where(op.location()));
    Step s;
    s.op = &op;
    for (const auto& group : op.operand_groups()) {
      std::vector<int> slots;
      for (const ir::Value* v : group) {
        check_type(v->type(), std::string(op.spec().mnemonic) + " operand", op.location());
        slots.push_back(lookup(v));
      }
      s.groups.push_back(std::move(slots));
    }
    for (const auto& region : op.regions())
      s.regions.push_back(region->num_blocks() == 0 ? BlockPlan{} : block(region->block(0)));
    for (const auto& r : op.results()) {
      check_type(r->type(), std::string(op.spec().mnemonic) + " result", op.location());
      s.results.push_back(slot(r.get()));
    }
    if (op.opcode() == O::reduce || op.opcode() == O::scan) {
      s.combine = single_combine(op);
      s.slice_body = true;
      for (const auto& inner : op.region(0).block(0).operations())
        if (!is_elementwise(inner->opcode()) && inner->opcode() != O::constant && inner->opcode() != O::yield)
          s.slice_body = false;
    }
    return s;
  }

 private:
  std::unordered_map<const ir::Value*, int> slots_;
};

}  // namespace

Plan make_plan(const ir::Function& function) {
  Planner planner;
  for (size_t i = 0; i < function.num_parameters(); ++i)
    check_type(function.parameter(i)->type(), "parameter " + std::to_string(i), function.location());
  Plan plan;
  plan.body = planner.block(function.entry_block());
  plan.num_slots = planner.size();
  return plan;
}

}  // namespace cutile::interp
