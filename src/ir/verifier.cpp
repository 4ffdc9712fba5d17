// The Tile IR verifier. Rules follow the cuda_tile dialect's own verifiers (ODS type constraints, op
// verify() functions, type verifiers) that tileiras runs after decoding bytecode, plus the version
// gates of the bytecode writer. Generic rules (operand groups, results, attributes, versions) come
// from the op table and are checked here, with the module, the kernels, the region structure and
// dominance; the per-op rules live in src/ir/verifier/, one source per op family, and this file
// dispatches each op to its family.
#include "cutile/ir/verifier.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <new>
#include <string>
#include <unordered_set>

#include "cutile/error.hpp"
#include "ir/verifier/rules.hpp"

namespace cutile::ir {
namespace verifier {
namespace {

// ---- identifiers ----------------------------------------------------------------------------------

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// ---- the verifier ---------------------------------------------------------------------------------

class Verifier {
 public:
  Verifier(const Module& module, Version version) : module_(module), version_(version) {}

  std::vector<Diagnostic> run() {
    check_names();
    for (const Global& g : module_.globals()) check_global(g);
    for (const auto& f : module_.functions()) check_function(*f);
    return std::move(out_);
  }

 private:
  // -- reporting
  void report(const Operation* op, std::string message) {
    Diagnostic d;
    d.kernel = fn_ ? fn_->name() : std::string();
    if (op) {
      d.op = std::string(op->spec().mnemonic);
      d.location = op->location();
    } else if (fn_) {
      d.location = fn_->location();
    }
    d.message = std::move(message);
    out_.push_back(std::move(d));
  }

  // -- module level
  void check_names() {
    std::unordered_set<std::string> seen;
    auto check = [&](const std::string& name, const char* what) {
      if (!is_identifier(name))
        report(nullptr,
               std::string(what) + " name '" + name + "' must be a C identifier ([A-Za-z_][A-Za-z0-9_]*)");
      else if (!seen.insert(name).second)
        report(nullptr, std::string(what) + " name '" + name + "' is defined twice in the module");
    };
    for (const auto& f : module_.functions()) check(f->name(), "kernel");
    for (const Global& g : module_.globals()) check(g.name, "global");
  }

  void check_global(const Global& g) {
    const std::string where = "global '" + g.name + "': ";
    if (auto p = dense_problem(g.value, version_)) return report(nullptr, where + *p);
    if (g.value.type.rank() != 1)
      return report(nullptr, where + "type must have rank 1, got " + g.value.type.str());
    if ((g.is_private || g.is_constant) && version_ < v13_3)
      report(nullptr, where + "private or constant globals require bytecode 13.3");
  }

  void check_function(const Function& f) {
    fn_ = &f;
    const Block& body = f.entry_block();
    for (size_t i = 0; i < body.num_arguments(); ++i) {
      const Type& t = body.argument(i)->type();
      if (!t.is_scalar_tile()) {
        report(nullptr, "parameter " + std::to_string(i) +
                            " must be a rank-0 tile (scalar or pointer), got " + t.str());
      } else if (auto p = type_problem(t, version_)) {
        report(nullptr, "parameter " + std::to_string(i) + ": " + *p);
      }
    }
    if (f.body().num_blocks() != 1) report(nullptr, "kernel body must have exactly one block");
    if (f.hints()) {
      try {
        check_hints(*f.hints(), {"num_cta_in_cga", "occupancy", "num_worker_warps_per_cta"}, version_);
      } catch (const Reject& r) {
        report(nullptr, r.message);
      }
    }
    walk_block(body);
    fn_ = nullptr;
  }

  // -- dominance walk: `visible_` holds the values defined earlier in this block or an enclosing one
  void walk_block(const Block& block) {
    const size_t mark = defined_.size();
    for (const auto& arg : block.arguments()) define(arg.get());
    const Operation* owner = block.parent_region() ? block.parent_region()->parent_op() : nullptr;
    const bool aggregate = owner && (owner->opcode() == Opcode::reduce || owner->opcode() == Opcode::scan);
    const auto& ops = block.operations();
    for (size_t i = 0; i < ops.size(); ++i) {
      const Operation& op = *ops[i];
      const bool last = i + 1 == ops.size();
      if (op.spec().terminator && !last) report(&op, "terminator must be the last op of its block");
      if (aggregate && !last && !allowed_in_aggregate(op))
        report(&op, std::string(version_ >= v13_4 ? "only memory-effect-free" : "only pure") +
                        " ops are allowed inside '" + std::string(owner->spec().mnemonic) + "'");
      check_op(op);
      for (const auto& region : op.regions())
        for (const auto& b : region->blocks()) walk_block(*b);
      for (const auto& r : op.results()) define(r.get());
    }
    check_block_end(block, owner);
    while (defined_.size() > mark) {
      visible_.erase(defined_.back());
      defined_.pop_back();
    }
  }

  /// Ops a reduce/scan body may hold. tileiras 13.3 demands MLIR's Pure trait (OpSpec::pure); 13.4
  /// relaxed this to memory-effect free, which also admits NoMemoryEffect ops and `if`/`reduce`/`scan`
  /// whose nested ops qualify. Bytecode below 13.4 may meet a 13.3 tileiras, so it keeps the old rule.
  bool allowed_in_aggregate(const Operation& op) const {
    if (op.spec().pure) return true;
    if (version_ < v13_4) return false;
    switch (op.opcode()) {
      case Opcode::divi:
      case Opcode::make_tensor_view:
      case Opcode::get_tensor_shape:
      case Opcode::get_index_space_shape:
        return true;
      case Opcode::if_:
      case Opcode::reduce:
      case Opcode::scan:
        for (const auto& region : op.regions())
          for (const auto& b : region->blocks())
            for (const auto& inner : b->operations())
              if (inner->opcode() != Opcode::yield && !allowed_in_aggregate(*inner)) return false;
        return true;
      default:
        return false;
    }
  }

  void define(const Value* v) {
    visible_.insert(v);
    defined_.push_back(v);
  }

  /// Which terminators may end a block of `owner` (nullptr: the kernel body).
  void check_block_end(const Block& block, const Operation* owner) {
    std::vector<Opcode> allowed;
    if (!owner)
      allowed = {Opcode::return_};
    else
      switch (owner->opcode()) {
        case Opcode::for_:
          allowed = {Opcode::continue_};
          break;
        case Opcode::loop:
          allowed = {Opcode::continue_, Opcode::break_};
          if (version_ >= v13_4) allowed.push_back(Opcode::return_);  // 13.4: early return from a loop
          break;
        case Opcode::if_:
          allowed = {Opcode::yield, Opcode::continue_, Opcode::break_, Opcode::return_};
          break;
        case Opcode::reduce:
        case Opcode::scan:
          allowed = {Opcode::yield};
          break;
        default:
          return;  // the op's own check reports unexpected regions
      }
    std::string names;
    for (Opcode o : allowed)
      names += (names.empty() ? "'" : " or '") + std::string(op_spec(o).mnemonic) + "'";
    const std::string where = owner ? "'" + std::string(owner->spec().mnemonic) + "' region" : "kernel body";
    if (block.empty()) return report(owner, "block of " + where + " is empty; it must end with " + names);
    const Operation& last = block.back();
    if (std::find(allowed.begin(), allowed.end(), last.opcode()) == allowed.end())
      report(&last, "block of " + where + " must end with " + names + ", found '" +
                        std::string(last.spec().mnemonic) + "'");
  }

  // -- one op
  void check_op(const Operation& op) {
    try {
      check_operands_visible(op);
      check_structure(op);
      for (const auto& r : op.results())
        if (auto p = type_problem(r->type(), version_))
          fail("result " + std::to_string(r->index()) + ": " + *p);
      for (const auto& region : op.regions())
        for (const auto& b : region->blocks())
          for (const auto& a : b->arguments())
            if (auto p = type_problem(a->type(), version_))
              fail("block argument " + std::to_string(a->index()) + ": " + *p);
      check_semantics(op);
    } catch (const Reject& r) {
      report(&op, r.message);
    } catch (const std::bad_alloc&) {
      throw;  // the host is out of memory: the op is not malformed
    } catch (
        const std::exception& e) {  // a malformed op the rules above did not foresee: report, never crash
      report(&op, std::string("malformed op: ") + e.what());
    }
  }

  void check_operands_visible(const Operation& op) {
    size_t i = 0;
    for (const auto& group : op.operand_groups())
      for (const Value* v : group) {
        if (v == nullptr) fail("operand " + std::to_string(i) + " is null");
        if (!visible_.contains(v))
          fail("operand " + std::to_string(i) + " (" + v->type().str() +
               ") is not defined before this op in the same block or an enclosing block");
        if (version_ < v13_2 && v->defining_op() && v->defining_op()->opcode() == Opcode::print_tko)
          fail("operand " + std::to_string(i) +
               " uses the token of a print op, which bytecode 13.1 does not have");
        ++i;
      }
  }

  /// Generic rules of the op table: availability, operand groups, results, regions, attributes.
  void check_structure(const Operation& op) {
    const OpSpec& s = op.spec();
    if (op.opcode() == Opcode::entry || op.opcode() == Opcode::global || op.opcode() == Opcode::module)
      fail("op cannot appear inside a kernel body");
    if (s.since > version_) fail("op requires bytecode " + s.since.str() + ", targeting " + version_.str());

    const auto& groups = op.operand_groups();
    if (groups.size() != s.operands.size())
      fail("expected " + std::to_string(s.operands.size()) + " operand groups, got " +
           std::to_string(groups.size()));
    for (size_t g = 0; g < groups.size(); ++g) {
      const OperandSpec& o = s.operands[g];
      const size_t n = groups[g].size();
      const std::string what = "operand '" + std::string(o.name) + "'";
      if (o.arity == Arity::single && n != 1)
        fail(what + " expects exactly one value, got " + std::to_string(n));
      if (o.arity == Arity::optional && n > 1)
        fail(what + " is optional: expects 0 or 1 values, got " + std::to_string(n));
      if (o.since > version_ && n != 0) fail(what + " requires bytecode " + o.since.str());
    }
    if (s.num_results >= 0 && op.num_results() != static_cast<size_t>(s.num_results))
      fail("expected " + std::to_string(s.num_results) + " results, got " + std::to_string(op.num_results()));
    if (op.num_regions() != static_cast<size_t>(s.num_regions))
      fail("expected " + std::to_string(s.num_regions) + " regions, got " + std::to_string(op.num_regions()));

    for (const NamedAttribute& a : op.attrs()) {
      const AttrSpec* as = s.find_attr(a.name);
      if (!as) fail("unknown attribute '" + a.name + "'");
      check_attr_kind(*as, a.value);
      if (as->since > version_) check_attr_default(*as, a.value);
    }
    for (const AttrSpec& as : s.attrs)
      if (!as.optional && !as.has_default && !op.has_attr(as.name))
        fail("missing required attribute '" + std::string(as.name) + "'");
  }

  void check_attr_kind(const AttrSpec& as, const Attribute& a) const {
    const std::string what = "attribute '" + std::string(as.name) + "'";
    AttrKind want = AttrKind::unit;
    switch (as.encoding) {
      case AttrEncoding::enum_value: {
        if (a.kind != AttrKind::enum_value || a.enum_kind != as.enum_kind)
          fail(what + " must be an enum value");
        const int64_t size = enum_size(as.enum_kind, version_);
        if (a.int_value < 0 || a.int_value >= size) {
          const std::string_view kw = enum_keyword(as.enum_kind, a.int_value);
          if (!kw.empty())
            fail(what + " value '" + std::string(kw) + "' requires a newer bytecode than " + version_.str());
          fail(what + " has invalid value " + std::to_string(a.int_value));
        }
        return;
      }
      case AttrEncoding::integer:
        want = AttrKind::integer;
        break;
      case AttrEncoding::boolean:
        want = AttrKind::boolean;
        break;
      case AttrEncoding::string:
        want = AttrKind::string;
        break;
      case AttrEncoding::i32_array:
        want = AttrKind::i32_array;
        break;
      case AttrEncoding::i64_array:
        want = AttrKind::i64_array;
        break;
      case AttrEncoding::bool_array:
        want = AttrKind::bool_array;
        break;
      case AttrEncoding::constant:
        want = AttrKind::dense_elements;
        break;
      case AttrEncoding::attribute_array:
        want = AttrKind::array;
        break;
      case AttrEncoding::hints:
        want = AttrKind::optimization_hints;
        break;
      case AttrEncoding::unit:
        want = AttrKind::unit;
        break;
      case AttrEncoding::self_contained:
        if (a.kind != AttrKind::div_by && a.kind != AttrKind::same_elements && a.kind != AttrKind::bounded)
          fail(what + " must be an assume predicate (div_by, same_elements or bounded)");
        return;
    }
    if (a.kind != want) fail(what + " has the wrong kind for its slot");
  }

  /// An attribute newer than the target version must be absent or hold its default.
  void check_attr_default(const AttrSpec& as, const Attribute& a) const {
    bool is_default = false;
    if (as.encoding == AttrEncoding::bool_array)
      is_default = std::none_of(a.bools.begin(), a.bools.end(), [](bool b) { return b; });
    else if (as.has_default)
      is_default = a.int_value == as.default_value;
    if (!is_default)
      fail("attribute '" + std::string(as.name) + "' requires bytecode " + as.since.str() + ", targeting " +
           version_.str());
  }

  // -- per-op semantics: the family that checks each opcode
  void check_semantics(const Operation& op) {
    switch (op.opcode()) {
      case Opcode::absf:
      case Opcode::ceil:
      case Opcode::cos:
      case Opcode::cosh:
      case Opcode::exp:
      case Opcode::exp2:
      case Opcode::floor:
      case Opcode::log:
      case Opcode::log2:
      case Opcode::negf:
      case Opcode::rsqrt:
      case Opcode::sin:
      case Opcode::sinh:
      case Opcode::sqrt:
      case Opcode::tan:
      case Opcode::tanh:
        return check_float_unary(op);
      case Opcode::addf:
      case Opcode::subf:
      case Opcode::mulf:
      case Opcode::divf:
      case Opcode::remf:
      case Opcode::maxf:
      case Opcode::minf:
      case Opcode::pow:
      case Opcode::atan2:
        return check_float_binary(op);
      case Opcode::fma:
        return check_fma(op);
      case Opcode::fpowi:
        return check_fpowi(op);
      case Opcode::absi:
      case Opcode::negi:
        return check_int_unary(op);
      case Opcode::addi:
      case Opcode::subi:
      case Opcode::muli:
      case Opcode::andi:
      case Opcode::ori:
      case Opcode::xori:
      case Opcode::maxi:
      case Opcode::mini:
      case Opcode::divi:
      case Opcode::remi:
      case Opcode::shli:
      case Opcode::shri:
      case Opcode::mulhii:
        return check_int_binary(op);
      case Opcode::cmpf:
      case Opcode::cmpi:
        return check_compare(op);
      case Opcode::select:
        return check_select(op);
      case Opcode::exti:
      case Opcode::trunci:
        return check_int_resize(op);
      case Opcode::ftof:
      case Opcode::ftoi:
      case Opcode::itof:
      case Opcode::bitcast:
        return check_conversion(op, version_);
      case Opcode::int_to_ptr:
        return check_int_to_ptr(op);
      case Opcode::ptr_to_int:
        return check_ptr_to_int(op);
      case Opcode::ptr_to_ptr:
        return check_ptr_to_ptr(op);
      case Opcode::offset:
        return check_offset(op);
      case Opcode::reshape:
      case Opcode::broadcast:
      case Opcode::permute:
      case Opcode::cat:
      case Opcode::extract:
      case Opcode::insert:
        return check_shape_op(op);
      case Opcode::iota:
        return check_iota(op);
      case Opcode::pack:
      case Opcode::unpack:
        return check_pack(op);
      case Opcode::constant:
        return check_constant(op, version_);
      case Opcode::mmaf:
      case Opcode::mmai:
      case Opcode::mmaf_scaled:
        return check_mma(op);
      case Opcode::get_tile_block_id:
      case Opcode::get_num_tile_blocks:
        return check_grid_query(op);
      case Opcode::assume:
        return check_assume(op);
      case Opcode::assert_:
        return check_assert(op);
      case Opcode::print_tko:
        return check_print(op);
      case Opcode::make_token:
        return check_make_token(op);
      case Opcode::join_tokens:
        return check_join_tokens(op);
      case Opcode::gdc_launch_dependents_tko:
      case Opcode::gdc_wait_tko:
      case Opcode::memory_fence_alias_tko:
        return check_token_op(op);
      case Opcode::get_global:
        return check_get_global(op, module_);
      case Opcode::alloca:
        return check_alloca(op);
      case Opcode::make_tensor_view:
        return check_make_tensor_view(op);
      case Opcode::make_partition_view:
      case Opcode::make_strided_view:
      case Opcode::make_gather_scatter_view:
        return check_make_view(op);
      case Opcode::get_tensor_shape:
      case Opcode::get_index_space_shape:
        return check_shape_query(op);
      case Opcode::load_view_tko:
      case Opcode::store_view_tko:
        return check_view_access(op, version_);
      case Opcode::load_ptr_tko:
      case Opcode::store_ptr_tko:
        return check_ptr_access(op, version_);
      case Opcode::atomic_rmw_tko:
      case Opcode::atomic_cas_tko:
        return check_atomic(op);
      case Opcode::atomic_red_view_tko:
        return check_atomic_red_view(op);
      case Opcode::multimem_load_reduce_view_tko:
      case Opcode::multimem_reduce_view_tko:
      case Opcode::multimem_store_view_tko:
        return check_multimem_view(op);
      case Opcode::if_:
        return check_if(op);
      case Opcode::for_:
        return check_for(op);
      case Opcode::loop:
        return check_loop(op);
      case Opcode::reduce:
      case Opcode::scan:
        return check_aggregate(op);
      case Opcode::yield:
        return check_yield(op);
      case Opcode::continue_:
        return check_continue(op);
      case Opcode::break_:
        return check_break(op);
      case Opcode::return_:
        return check_return(op, version_);
      case Opcode::entry:
      case Opcode::global:
      case Opcode::module:
        return;
    }
  }

  const Module& module_;
  Version version_;
  const Function* fn_ = nullptr;
  std::vector<Diagnostic> out_;
  std::unordered_set<const Value*> visible_;
  std::vector<const Value*> defined_;
};

}  // namespace
}  // namespace verifier

std::string Diagnostic::str() const {
  std::string out = kernel.empty() ? "in module" : "in kernel '" + kernel + "'";
  if (!kernel.empty()) out += " at " + location.str();
  out += ": ";
  if (!op.empty()) out += op + ": ";
  return out + message;
}

std::vector<Diagnostic> check_module(const Module& module, Version version) {
  if (version < kOldestVersion || version > kNewestVersion)
    throw UserError("unsupported bytecode version " + version.str() + " (expected 13.1 .. 13.5)");
  return verifier::Verifier(module, version).run();
}

void verify_module(const Module& module, Version version) {
  const std::vector<Diagnostic> problems = check_module(module, version);
  if (problems.empty()) return;
  std::string message = "invalid Tile IR module '" + module.name() + "' for bytecode " + version.str() +
                        " (" + std::to_string(problems.size()) +
                        (problems.size() == 1 ? " problem):" : " problems):");
  for (const Diagnostic& d : problems) message += "\n  " + d.str();
  throw UserError(message);
}

}  // namespace cutile::ir