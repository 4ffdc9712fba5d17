#include "interp/executor.hpp"

#include "cutile/error.hpp"
#include "interp/aggregate.hpp"
#include "interp/elementwise.hpp"
#include "interp/fault.hpp"
#include "interp/memory_ops.hpp"
#include "interp/mma.hpp"
#include "interp/numeric.hpp"
#include "interp/print_format.hpp"
#include "interp/shape_ops.hpp"

namespace cutile::interp {
namespace {

using O = ir::Opcode;

// How a block ended: its terminator and the values it carries.
struct Exit {
  O terminator = O::yield;
  std::vector<RtValue> values;
};

std::string block_text(const std::array<int64_t, 3>& id) {
  return "tile block (" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " + std::to_string(id[2]) + ")";
}

Array scalar_i32(int64_t v) {
  Array a;
  a.element = ir::ElementType::i32;
  a.i = {static_cast<uint64_t>(v) & bit_mask(32)};
  return a;
}

class Executor {
 public:
  Executor(const Plan& plan, BlockContext& ctx) : slots_(static_cast<size_t>(plan.num_slots)), ctx_(ctx) {}

  void bind(const std::vector<int>& slots, std::vector<RtValue> values) {
    for (size_t i = 0; i < slots.size(); ++i) slots_[static_cast<size_t>(slots[i])] = std::move(values[i]);
  }

  Exit run(const BlockPlan& block) {
    for (const Step& s : block.steps) {
      if (s.op->spec().terminator) return {s.op->opcode(), values(s, 0)};
      if (std::optional<Exit> exit = execute(s)) return std::move(*exit);
    }
    throw InternalError("interpreter: block without terminator");
  }

 private:
  const RtValue& at(int slot) const { return slots_[static_cast<size_t>(slot)]; }
  const Array& array(int slot) const { return as_array(at(slot)); }
  std::vector<RtValue> values(const Step& s, size_t group) const {
    std::vector<RtValue> out;
    if (group >= s.groups.size()) return out;
    for (int slot : s.groups[group]) out.push_back(at(slot));
    return out;
  }
  std::vector<const Array*> arrays(const Step& s) const {
    std::vector<const Array*> out;
    for (const auto& g : s.groups)
      for (int slot : g) out.push_back(&array(slot));
    return out;
  }
  void set_results(const Step& s, std::vector<RtValue> results) { bind(s.results, std::move(results)); }

  std::optional<Exit> execute(const Step& s) {
    try {
      return dispatch(s);
    } catch (const Fault& fault) {
      const ir::Operation& op = *s.op;
      throw UserError(std::string(op.spec().mnemonic) + " at " + op.location().str() + " in " + block_text(ctx_.block_id) +
                      ": " + fault.what());
    }
  }

  std::optional<Exit> dispatch(const Step& s) {
    const ir::Operation& op = *s.op;
    const O opcode = op.opcode();
    if (is_elementwise(opcode)) {
      set_results(s, {eval_elementwise(op, arrays(s))});
    } else if (is_shape_op(opcode)) {
      set_results(s, {eval_shape_op(op, arrays(s))});
    } else if (is_memory_op(opcode)) {
      OperandGroups groups;
      for (const auto& g : s.groups) {
        groups.emplace_back();
        for (int slot : g) groups.back().push_back(&at(slot));
      }
      set_results(s, eval_memory_op(op, groups, *ctx_.memory));
    } else {
      switch (opcode) {
        case O::if_: return branch(s);
        case O::for_: return for_loop(s);
        case O::loop: return loop(s);
        case O::reduce:
        case O::scan: aggregate(s); break;
        case O::mmaf:
        case O::mmai: set_results(s, {eval_mma(op, array(s.groups[0][0]), array(s.groups[1][0]), array(s.groups[2][0]))}); break;
        case O::assume: check_assumption(op, array(s.groups[0][0])); set_results(s, {at(s.groups[0][0])}); break;
        case O::assert_: check_assertion(op, array(s.groups[0][0])); break;
        case O::print_tko: {
          std::vector<const Array*> args;
          for (int slot : s.groups[0]) args.push_back(&array(slot));
          ctx_.printed += format_print(op.attr("str")->str, args);
          if (!s.results.empty()) set_results(s, {Token{}});
          break;
        }
        case O::get_tile_block_id:
        case O::get_num_tile_blocks: {
          const auto& v = opcode == O::get_tile_block_id ? ctx_.block_id : ctx_.grid;
          set_results(s, {scalar_i32(v[0]), scalar_i32(v[1]), scalar_i32(v[2])});
          break;
        }
        case O::get_global: {
          Array p = make_array(op.result(0)->type());
          auto it = ctx_.globals->find(op.attr("name")->str);
          if (it == ctx_.globals->end()) throw Fault("no global named '" + op.attr("name")->str + "'");
          p.i[0] = it->second;
          set_results(s, {std::move(p)});
          break;
        }
        case O::make_token:
        case O::join_tokens:
        case O::gdc_wait_tko:
        case O::gdc_launch_dependents_tko:
        case O::memory_fence_alias_tko:
          set_results(s, {Token{}});
          break;
        default:
          throw InternalError("interpreter: no evaluation for " + std::string(op.spec().mnemonic));
      }
    }
    return std::nullopt;
  }

  std::optional<Exit> branch(const Step& s) {
    const bool taken = scalar_bits(at(s.groups[0][0])) != 0;
    const BlockPlan& region = s.regions[taken ? 0 : 1];
    if (!region.present) return std::nullopt;
    Exit exit = run(region);
    if (exit.terminator != O::yield) return exit;  // continue / break / return leave the enclosing op too
    set_results(s, std::move(exit.values));
    return std::nullopt;
  }

  std::optional<Exit> for_loop(const Step& s) {
    const Array& lower = array(s.groups[0][0]);
    const int w = ir::element_bits(lower.element);
    const bool unsigned_cmp = s.op->has_attr("unsignedCmp");
    const uint64_t ub = scalar_bits(at(s.groups[1][0])), step = scalar_bits(at(s.groups[2][0]));
    if (step == 0 || (!unsigned_cmp && sign_extend(step, w) < 0))
      throw Fault("the step of a for loop must be positive, got " + std::to_string(sign_extend(step, w)));
    auto below = [&](uint64_t iv) { return unsigned_cmp ? iv < ub : sign_extend(iv, w) < sign_extend(ub, w); };
    std::vector<RtValue> carried = values(s, 3);
    const BlockPlan& body = s.regions[0];
    for (uint64_t iv = lower.i[0]; below(iv);) {
      Array index = lower;
      index.i[0] = iv;
      std::vector<RtValue> args{std::move(index)};
      for (RtValue& v : carried) args.push_back(std::move(v));
      bind(body.arguments, std::move(args));
      Exit exit = run(body);
      if (exit.terminator == O::return_) return exit;
      carried = std::move(exit.values);
      if (exit.terminator == O::break_) break;
      const uint64_t next = (iv + step) & bit_mask(w);
      if (unsigned_cmp ? next < iv : sign_extend(next, w) < sign_extend(iv, w)) break;  // the induction variable wrapped
      iv = next;
    }
    set_results(s, std::move(carried));
    return std::nullopt;
  }

  std::optional<Exit> loop(const Step& s) {
    std::vector<RtValue> carried = values(s, 0);
    const BlockPlan& body = s.regions[0];
    for (;;) {
      bind(body.arguments, std::move(carried));
      Exit exit = run(body);
      if (exit.terminator == O::return_) return exit;
      if (exit.terminator == O::break_) {
        set_results(s, std::move(exit.values));
        return std::nullopt;
      }
      carried = std::move(exit.values);
    }
  }

  // reduce / scan: a single combining op folds directly; an elementwise body runs once per slice on whole
  // slices; any other body runs once per element on rank-0 tiles.
  void aggregate(const Step& s) {
    const ir::Operation& op = *s.op;
    const bool scan = op.opcode() == O::scan;
    const bool reverse = scan && op.attr("reverse")->int_value != 0;
    const size_t dim = static_cast<size_t>(op.attr("dim")->int_value);
    const std::vector<ir::Attribute>& identity_attrs = op.attr("identities")->elements;
    std::vector<const Array*> inputs;
    std::vector<Array> identities;
    for (size_t j = 0; j < s.groups[0].size(); ++j) {
      inputs.push_back(&array(s.groups[0][j]));
      identities.push_back(identity_of(identity_attrs[j], *inputs.back()));
    }
    if (s.combine) {
      const bool unsigned_ = s.combine->has_attr("signedness") &&
                             s.combine->enum_attr_or_default("signedness") == static_cast<int64_t>(ir::Signedness::unsigned_);
      set_results(s, {fold(s.combine->opcode(), unsigned_, *inputs[0], dim, identities[0], scan, reverse)});
      return;
    }
    if (s.slice_body) {
      set_results(s, fold_with_body(s, inputs, identities, dim, scan, reverse));
      return;
    }
    // Per element: each column along `dim` is folded on its own, with rank-0 slices.
    const std::vector<int64_t>& shape = inputs[0]->shape;
    const std::vector<int64_t> strides = row_major_strides(shape);
    std::vector<int64_t> rest = shape;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(dim));
    std::vector<Array> results;
    for (const Array* in : inputs) results.push_back(make_like(*in, scan ? shape : rest));
    const int64_t inner = strides[dim], len = shape[dim];
    const int64_t columns = num_elements(rest);
    for (int64_t c = 0; c < columns; ++c) {
      const int64_t base = (c / inner) * len * inner + c % inner;
      std::vector<Array> column_store;
      for (const Array* in : inputs) column_store.push_back(strided_copy(*in, base, {inner}, {len}));
      std::vector<const Array*> columns_in;
      for (const Array& a : column_store) columns_in.push_back(&a);
      std::vector<RtValue> folded = fold_with_body(s, columns_in, identities, 0, scan, reverse);
      for (size_t j = 0; j < results.size(); ++j) {
        const Array& r = as_array(folded[j]);
        for (int64_t k = 0; k < (scan ? len : 1); ++k) {
          const size_t to = static_cast<size_t>(scan ? base + k * inner : c);
          if (r.is_float())
            results[j].f[to] = r.f[static_cast<size_t>(k)];
          else
            results[j].i[to] = r.i[static_cast<size_t>(k)];
        }
      }
    }
    std::vector<RtValue> out;
    for (Array& r : results) out.emplace_back(std::move(r));
    set_results(s, std::move(out));
  }

  // Runs the body once per position along `dim`, on slices (cur0, acc0, cur1, acc1, ...).
  std::vector<RtValue> fold_with_body(const Step& s, const std::vector<const Array*>& inputs,
                                      const std::vector<Array>& identities, size_t dim, bool scan, bool reverse) {
    const BlockPlan& body = s.regions[0];
    std::vector<int64_t> part_shape = inputs[0]->shape;
    part_shape.erase(part_shape.begin() + static_cast<std::ptrdiff_t>(dim));
    const int64_t len = inputs[0]->shape[dim];
    std::vector<Array> acc, results;
    for (size_t j = 0; j < inputs.size(); ++j) {
      acc.push_back(spread(identities[j], part_shape));
      if (scan) results.push_back(make_like(*inputs[j], inputs[j]->shape));
    }
    for (int64_t t = 0; t < len; ++t) {
      const int64_t k = reverse ? len - 1 - t : t;
      std::vector<RtValue> args;
      for (size_t j = 0; j < inputs.size(); ++j) {
        args.emplace_back(slice(*inputs[j], dim, k));
        args.emplace_back(std::move(acc[j]));
      }
      bind(body.arguments, std::move(args));
      Exit exit = run(body);
      for (size_t j = 0; j < inputs.size(); ++j) {
        acc[j] = spread(as_array(exit.values[j]), part_shape);
        if (scan) put_slice(results[j], dim, k, acc[j]);
      }
    }
    std::vector<RtValue> out;
    for (Array& a : scan ? results : acc) out.emplace_back(std::move(a));
    return out;
  }

  static void check_assertion(const ir::Operation& op, const Array& condition) {
    for (size_t k = 0; k < condition.i.size(); ++k)
      if (condition.i[k] == 0)
        throw Fault("assertion failed: " + op.attr("message")->str +
                    (condition.shape.empty() ? std::string() : " (tile element " + std::to_string(k) + " is false)"));
  }

  // assume predicates are promises to the compiler; the ones that can be checked are, since a broken
  // promise is undefined behaviour on the GPU.
  static void check_assumption(const ir::Operation& op, const Array& value) {
    const ir::Attribute& p = *op.attr("predicate");
    if (value.is_float()) return;
    const int w = value.pointer ? 64 : ir::element_bits(value.element);
    if (p.kind == ir::AttrKind::div_by) {
      const uint64_t divisor = static_cast<uint64_t>(p.int_value);
      const std::vector<int64_t> strides = row_major_strides(value.shape);
      for (size_t k = 0; k < value.i.size(); ++k) {
        if (p.every && p.along) {
          const size_t along = static_cast<size_t>(*p.along);
          const int64_t position = (static_cast<int64_t>(k) / strides[along]) % value.shape[along];
          if (position % *p.every != 0) continue;
        }
        const int64_t v = value.pointer ? static_cast<int64_t>(value.i[k]) : sign_extend(value.i[k], w);
        if (static_cast<uint64_t>(v) % divisor != 0)
          throw Fault("assumption div_by<" + std::to_string(divisor) + "> does not hold: tile element " + std::to_string(k) +
                      " is " + std::to_string(v));
      }
    } else if (p.kind == ir::AttrKind::bounded) {
      for (size_t k = 0; k < value.i.size(); ++k) {
        const int64_t v = sign_extend(value.i[k], w);
        if ((p.lower && v < *p.lower) || (p.upper && v > *p.upper))
          throw Fault("assumption bounded<" + (p.lower ? std::to_string(*p.lower) : "?") + ", " +
                      (p.upper ? std::to_string(*p.upper) : "?") + "> does not hold: tile element " + std::to_string(k) +
                      " is " + std::to_string(v));
      }
    }
  }

  std::vector<RtValue> slots_;
  BlockContext& ctx_;
};

}  // namespace

void run_block(const Plan& plan, const std::vector<RtValue>& parameters, BlockContext& context) {
  Executor executor(plan, context);
  executor.bind(plan.body.arguments, parameters);
  executor.run(plan.body);
}

}  // namespace cutile::interp
