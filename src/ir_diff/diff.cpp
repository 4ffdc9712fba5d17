// Structural diff of two kernels: canonicalise, extract features, pair and compare them, apply the policy.
#include "cutile/ir_diff/diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "cutile/error.hpp"

namespace cutile::ir {
namespace {

// ---------------------------------------------------------------------------------------------------
// The policy: one rule per feature family. See the table in diff.hpp.

enum class Rule {
  memory_op, view_tile, view_padding, view_unit_stride, view_layout, element_type, access_latency,
  access_allow_tma, access_no_tma, mma, reduction, critical_count, loop_structure, arith_count, index_count,
  ceil_div, other_count, tile_shapes, entry_hint, pointer_assume_view, pointer_assume_ptr, scalar_div_by,
  scalar_bounded, rounding_ftz, token_count, signature,
};

struct Policy {
  Rule rule;
  std::string_view name;
  Severity differs, missing, extra;
  /// For counts: the severity of a difference of at most 2, whatever its status.
  std::optional<Severity> small_delta = std::nullopt;
};

constexpr Severity I = Severity::info, W = Severity::warn, C = Severity::critical;

constexpr Policy kPolicy[] = {
    {Rule::memory_op, "memory_op", C, C, C},
    {Rule::view_tile, "view_tile", C, C, C},
    {Rule::view_padding, "view_padding", C, C, W},
    {Rule::view_unit_stride, "view_unit_stride", C, C, I},
    {Rule::view_layout, "view_layout", W, W, W},
    {Rule::element_type, "element_type", W, W, W},
    {Rule::access_latency, "access_latency", W, W, W},
    {Rule::access_allow_tma, "access_allow_tma", W, W, W},
    {Rule::access_no_tma, "access_no_tma", C, C, W},
    {Rule::mma, "mma", C, C, C},
    {Rule::reduction, "reduction", C, C, C},
    {Rule::critical_count, "critical_count", C, C, C},
    {Rule::loop_structure, "loop_structure", C, C, C},
    {Rule::arith_count, "arith_count", C, C, C, W},
    {Rule::index_count, "index_count", W, W, W, I},
    {Rule::ceil_div, "ceil_div", C, C, W},
    {Rule::other_count, "other_count", I, I, I},
    {Rule::tile_shapes, "tile_shapes", C, C, C},
    {Rule::entry_hint, "entry_hint", C, W, W},
    {Rule::pointer_assume_view, "pointer_assume_view", W, W, I},
    {Rule::pointer_assume_ptr, "pointer_assume_ptr", C, C, I},
    {Rule::scalar_div_by, "scalar_div_by", C, W, C},
    {Rule::scalar_bounded, "scalar_bounded", I, I, I},
    {Rule::rounding_ftz, "rounding_ftz", C, C, W},
    {Rule::token_count, "token_count", W, W, W},
    {Rule::signature, "signature", W, W, W},
};

const Policy& policy(Rule rule) {
  for (const Policy& p : kPolicy)
    if (p.rule == rule) return p;
  throw InternalError("diff policy has no entry for a rule");
}

/// Which count rule an op's count falls under.
Rule count_rule(Opcode op) {
  using O = Opcode;
  switch (op) {
    case O::load_view_tko: case O::store_view_tko: case O::load_ptr_tko: case O::store_ptr_tko:
    case O::atomic_cas_tko: case O::atomic_rmw_tko: case O::atomic_red_view_tko:
      return Rule::memory_op;
    case O::exp: case O::exp2: case O::rsqrt: case O::fma: case O::for_: case O::loop: case O::mmaf:
    case O::mmai: case O::mmaf_scaled: case O::reduce: case O::scan:
      return Rule::critical_count;
    case O::addf: case O::subf: case O::mulf: case O::divf: case O::maxf: case O::minf: case O::negf:
    case O::absf: case O::remf: case O::sqrt: case O::log: case O::log2: case O::tanh: case O::sin:
    case O::cos: case O::tan: case O::sinh: case O::cosh: case O::pow: case O::fpowi: case O::atan2:
    case O::floor: case O::ceil:
      return Rule::arith_count;
    case O::addi: case O::subi: case O::muli: case O::divi: case O::remi: case O::mini: case O::maxi:
    case O::shli: case O::shri: case O::andi: case O::ori: case O::xori: case O::negi: case O::absi:
    case O::mulhii:
      return Rule::index_count;
    case O::make_token:
      return Rule::token_count;
    default:
      return Rule::other_count;
  }
}

// ---------------------------------------------------------------------------------------------------
// Small text helpers.

std::string join(const std::vector<std::string>& parts, std::string_view sep = ", ") {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::vector<std::string> parts;
  for (int64_t d : shape) parts.push_back(d == kDynamic ? "?" : std::to_string(d));
  return join(parts, "x");
}

template <class Int>
std::string list_text(const std::vector<Int>& values) {
  std::vector<std::string> parts;
  for (auto v : values) parts.push_back(static_cast<int64_t>(v) == kDynamic ? "?" : std::to_string(v));
  return "[" + join(parts, ",") + "]";
}

/// "a×2, b" from a multiset; "-" when empty.
std::string multiset_text(const std::multiset<std::string>& items) {
  std::vector<std::string> parts;
  for (auto it = items.begin(); it != items.end(); it = items.upper_bound(*it)) {
    const size_t n = items.count(*it);
    parts.push_back(n > 1 ? *it + "×" + std::to_string(n) : *it);
  }
  return parts.empty() ? "-" : join(parts);
}

bool includes(const std::multiset<std::string>& big, const std::multiset<std::string>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

std::string attr_text(const Attribute& a) {
  switch (a.kind) {
    case AttrKind::integer: return std::to_string(a.int_value);
    case AttrKind::boolean: return a.int_value ? "true" : "false";
    case AttrKind::floating: {
      const double v = a.float_value();
      std::string text;
      if (std::isinf(v)) text = v < 0 ? "-inf" : "inf";
      else if (std::isnan(v)) text = "nan";
      else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        text = buf;
      }
      return text + ":" + std::string(element_type_name(a.type.element_type()));
    }
    case AttrKind::string: return "\"" + a.str + "\"";
    case AttrKind::div_by: {
      std::string text = "div_by<" + std::to_string(a.int_value);
      if (a.every) text += ", every " + std::to_string(*a.every) + " along " + std::to_string(a.along.value_or(0));
      return text + ">";
    }
    case AttrKind::bounded:
      return "bounded<" + (a.lower ? std::to_string(*a.lower) : std::string("?")) + ", " +
             (a.upper ? std::to_string(*a.upper) : std::string("?")) + ">";
    case AttrKind::same_elements: return "same_elements" + list_text(a.ints);
    default: return "<attr>";
  }
}

/// {hint name: value} of an optimization_hints attribute, arch keys folded in ("sm_90:3, sm_100:4" when
/// the architectures disagree).
std::map<std::string, std::string> flatten_hints(const Attribute* hints) {
  std::map<std::string, std::map<std::string, std::string>> by_name;  // name -> arch -> value
  if (hints != nullptr)
    for (const auto& [arch, dict] : hints->entries)
      for (const auto& [name, value] : dict.entries) by_name[name][arch] = attr_text(value);
  std::map<std::string, std::string> out;
  for (const auto& [name, per_arch] : by_name) {
    std::set<std::string> values;
    for (const auto& [arch, v] : per_arch) values.insert(v);
    if (values.size() == 1) {
      out[name] = *values.begin();
      continue;
    }
    std::vector<std::string> parts;
    for (const auto& [arch, v] : per_arch) parts.push_back(arch + ":" + v);
    out[name] = join(parts);
  }
  return out;
}

std::string element_name(const Type& t) {
  if (t.is(TypeKind::element)) return std::string(element_type_name(t.element_type()));
  if (t.is(TypeKind::pointer)) return "ptr<" + element_name(t.element()) + ">";
  if (t.is(TypeKind::tile) || t.is(TypeKind::tensor_view)) return element_name(t.element());
  return t.str();
}

// ---------------------------------------------------------------------------------------------------
// Canonical view of a function body: every op with its enclosing ops, liveness and absorbed ops.

bool has_side_effects(Opcode op) {
  using O = Opcode;
  switch (op) {
    case O::load_view_tko: case O::store_view_tko: case O::load_ptr_tko: case O::store_ptr_tko:
    case O::atomic_cas_tko: case O::atomic_rmw_tko: case O::atomic_red_view_tko: case O::print_tko:
    case O::assert_: case O::for_: case O::loop: case O::if_: case O::break_: case O::continue_: case O::yield:
    case O::return_: case O::alloca: case O::gdc_launch_dependents_tko: case O::gdc_wait_tko:
    case O::memory_fence_alias_tko:
      return true;
    default:
      return false;
  }
}

bool is_combiner_owner(Opcode op) { return op == Opcode::reduce || op == Opcode::scan; }

struct Body {
  std::vector<const Operation*> ops;  ///< pre-order, combiner bodies included
  std::unordered_map<const Value*, std::vector<const Operation*>> users;
  std::unordered_set<const Operation*> live;
  std::unordered_set<const Operation*> absorbed;  ///< live ops folded into a canonical form

  static const Operation* parent_of(const Operation* op) {
    const Block* b = op->parent_block();
    return b && b->parent_region() ? b->parent_region()->parent_op() : nullptr;
  }
  /// True for ops inside a reduce/scan combiner: described by their owner, not counted.
  static bool in_combiner(const Operation* op) {
    for (const Operation* p = parent_of(op); p != nullptr; p = parent_of(p))
      if (is_combiner_owner(p->opcode())) return true;
    return false;
  }
  bool counted(const Operation* op) const { return live.count(op) && !absorbed.count(op) && !in_combiner(op); }
  const std::vector<const Operation*>& users_of(const Value* v) const {
    static const std::vector<const Operation*> none;
    auto it = users.find(v);
    return it == users.end() ? none : it->second;
  }
  bool used(const Value* v) const {
    for (const Operation* u : users_of(v))
      if (live.count(u)) return true;
    return false;
  }
};

void collect(const Block& block, Body& body) {
  for (const auto& op : block.operations()) {
    body.ops.push_back(op.get());
    for (const Value* v : op->operands()) body.users[v].push_back(op.get());
    for (const auto& region : op->regions())
      for (const auto& b : region->blocks()) collect(*b, body);
  }
}

void mark_live(Body& body) {
  std::vector<const Operation*> work;
  auto mark = [&](const Operation* op) {
    if (op != nullptr && body.live.insert(op).second) work.push_back(op);
  };
  for (const Operation* op : body.ops)
    if (has_side_effects(op->opcode()) && !Body::in_combiner(op)) mark(op);
  while (!work.empty()) {
    const Operation* op = work.back();
    work.pop_back();
    for (const Value* v : op->operands()) mark(v->defining_op());
    mark(Body::parent_of(op));
    // A live op's combiner: its terminator carries the result.
    if (is_combiner_owner(op->opcode()))
      for (const auto& region : op->regions())
        for (const auto& b : region->blocks())
          if (!b->empty()) mark(&b->back());
  }
}

std::optional<int64_t> int_constant(const Value* v) {
  const Operation* op = v ? v->defining_op() : nullptr;
  if (op == nullptr || op->opcode() != Opcode::constant) return std::nullopt;
  const Attribute* a = op->attr("value");
  if (a == nullptr || a->kind != AttrKind::dense_elements || !a->type.is(TypeKind::tile)) return std::nullopt;
  const ElementType e = a->type.element().element_type();
  if (!is_integer(e)) return std::nullopt;
  const size_t bytes = static_cast<size_t>(std::max(1, element_bits(e) / 8));
  if (a->raw.size() != bytes) return std::nullopt;  // only splats are one value
  uint64_t bits = 0;
  for (size_t i = 0; i < bytes; ++i) bits |= static_cast<uint64_t>(a->raw[i]) << (8 * i);
  const int width = static_cast<int>(bytes * 8);
  if (width < 64 && (bits >> (width - 1)) & 1) bits |= ~uint64_t{0} << width;  // sign-extend
  return static_cast<int64_t>(bits);
}

bool same_value(const Value* a, const Value* b) {
  if (a == b) return true;
  auto ca = int_constant(a), cb = int_constant(b);
  return ca && cb && *ca == *cb;
}

const Operation* def_of(const Value* v, Opcode op) {
  const Operation* d = v ? v->defining_op() : nullptr;
  return d && d->opcode() == op ? d : nullptr;
}

/// The form of ceil-div a `divi` spells, with the ops it takes in `parts`; nullopt for a plain division.
std::optional<std::string> ceil_div_form(const Operation& divi, std::vector<const Operation*>& parts) {
  if (divi.enum_attr_or_default("rounding") == static_cast<int64_t>(RoundingMode::positive_inf))
    return "divi<positive_inf>";
  const Value* x = divi.operand(0);
  const Value* b = divi.operand(1);
  const auto is_b_minus_1 = [&](const Value* v, std::vector<const Operation*>& taken) {
    auto c = int_constant(v), cb = int_constant(b);
    if (c && cb && *c == *cb - 1) return true;
    if (const Operation* sub = def_of(v, Opcode::subi); sub && same_value(sub->operand(0), b) &&
                                                        int_constant(sub->operand(1)) == 1) {
      taken.push_back(sub);
      return true;
    }
    return false;
  };
  // (a + (b - 1)) / b, either operand order.
  if (const Operation* add = def_of(x, Opcode::addi)) {
    for (int i = 0; i < 2; ++i) {
      std::vector<const Operation*> taken{add};
      if (is_b_minus_1(add->operand(i), taken)) {
        parts = taken;
        return "(a+b-1)/b";
      }
    }
  }
  // ((a + b) - 1) / b
  if (const Operation* sub = def_of(x, Opcode::subi); sub && int_constant(sub->operand(1)) == 1) {
    if (const Operation* add = def_of(sub->operand(0), Opcode::addi);
        add && (same_value(add->operand(0), b) || same_value(add->operand(1), b))) {
      parts = {sub, add};
      return "(a+b-1)/b";
    }
  }
  return std::nullopt;
}

/// The form of remainder a `remi` spells, with the sign fix-up ops it takes in `parts`.
std::string remainder_form(const Body& body, const Operation& remi, std::vector<const Operation*>& parts) {
  const Value* r = remi.result(0);
  for (const Operation* user : body.users_of(r)) {
    if (!body.live.count(user)) continue;
    // r < 0 ? r + b : r
    if (user->opcode() == Opcode::select) {
      for (int branch = 1; branch <= 2; ++branch) {
        const Operation* add = def_of(user->operand(branch), Opcode::addi);
        if (add == nullptr || user->operand(3 - branch) != r) continue;
        if (add->operand(0) != r && add->operand(1) != r) continue;
        parts = {user, add};
        if (const Operation* cond = user->operand(0)->defining_op()) {
          parts.push_back(cond);
          if (cond->opcode() == Opcode::andi)
            for (const Value* v : cond->operands())
              if (const Operation* c = v->defining_op(); c && c->opcode() == Opcode::cmpi) parts.push_back(c);
        }
        return "remi+select fix-up";
      }
    }
    // ((a % b) + b) % b
    if (user->opcode() == Opcode::addi) {
      for (const Operation* outer : body.users_of(user->result(0)))
        if (outer->opcode() == Opcode::remi && body.live.count(outer) && outer->operand(0) == user->result(0) &&
            same_value(outer->operand(1), remi.operand(1))) {
          parts = {user, outer};
          return "((a%b)+b)%b";
        }
    }
  }
  return "remi";
}

// ---------------------------------------------------------------------------------------------------
// Features.

struct Access {
  std::string kind;  ///< load_view, store_ptr, ...
  std::map<std::string, std::string> props;
  std::string descriptor() const {
    std::string d = kind;
    for (const auto& [k, v] : props) d += " " + k + "=" + v;
    return d;
  }
};

struct Reduction {
  std::string kind;  ///< reduce / scan
  std::map<std::string, std::string> props;
};

struct Features {
  std::map<std::string, int> counts;  ///< by mnemonic
  std::map<std::string, Rule> count_rules;
  std::vector<Access> accesses;
  std::vector<Reduction> reductions;
  std::vector<std::map<std::string, std::string>> mmas;
  std::vector<std::string> loops;
  std::set<std::string> tile_shapes;
  std::map<std::string, std::string> entry_hints;
  std::multiset<std::string> pointer_assumes;  ///< the div_by of each pointer parameter that has one
  std::multiset<std::string> scalar_div_by, bounded;
  std::map<std::string, std::multiset<std::string>> rounding;  ///< "<op> rounding_mode" -> values
  std::multiset<std::string> ceil_divs, remainders;
  std::multiset<std::string> parameters;
  bool pointer_path = false, view_path = false;
};

std::string view_kind_name(Opcode op) {
  std::string name(op_spec(op).mnemonic);
  if (name.ends_with("_tko")) name.resize(name.size() - 4);
  return name;
}

const std::vector<Value*>* operand_group(const Operation& op, std::string_view name) {
  const auto& specs = op.spec().operands;
  for (size_t i = 0; i < specs.size() && i < op.operand_groups().size(); ++i)
    if (specs[i].name == name) return &op.operand_groups()[i];
  return nullptr;
}

Access describe_access(const Operation& op) {
  Access a{view_kind_name(op.opcode()), {}};
  const auto* view = operand_group(op, "view");
  if (view && !view->empty()) {
    const Type vt = view->front()->type();
    a.props["tile"] = "(" + shape_text({vt.tile_shape().begin(), vt.tile_shape().end()}) + ")";
    const Type tv = vt.tensor_view();
    a.props["element"] = element_name(tv);
    a.props["strides"] = list_text(tv.strides());
    a.props["shape"] = shape_text(tv.shape());
    a.props["padding"] = vt.padding() ? std::string(padding_value_name(*vt.padding())) : "-";
    if (vt.is(TypeKind::partition_view) || vt.is(TypeKind::strided_view)) {
      const auto& dm = vt.dim_map();
      bool identity = true;
      for (size_t i = 0; i < dm.size(); ++i) identity = identity && dm[i] == static_cast<int32_t>(i);
      if (!identity) a.props["dim_map"] = list_text(dm);
    }
    if (!vt.is(TypeKind::partition_view))
      a.props["view"] = vt.is(TypeKind::strided_view) ? "strided_view" : "gather_scatter_view";
  } else {
    const char* names[] = {"source", "destination", "pointers"};
    for (const char* n : names)
      if (const auto* g = operand_group(op, n); g && !g->empty()) {
        const Type pt = g->front()->type();
        a.props["tile"] = "(" + shape_text(pt.shape()) + ")";
        a.props["element"] = element_name(pt.element().element());
        break;
      }
    const auto* mask = operand_group(op, "mask");
    a.props["mask"] = mask && !mask->empty() ? "yes" : "-";
    if (const auto* pad = operand_group(op, "paddingValue"); pad)
      a.props["padding"] = pad->empty() ? "-" : "operand";
  }
  for (const auto& [name, value] : flatten_hints(op.attr("optimization_hints"))) a.props[name] = value;
  return a;
}

Reduction describe_reduction(const Operation& op) {
  Reduction r{std::string(op.spec().mnemonic), {}};
  r.props["axis"] = std::to_string(op.attr("dim") ? op.attr("dim")->int_value : 0);
  std::vector<std::string> ids, elements, combiner;
  if (const Attribute* a = op.attr("identities"))
    for (const Attribute& e : a->elements) ids.push_back(attr_text(e));
  for (const Value* v : op.operands()) elements.push_back(element_name(v->type()));
  for (const auto& region : op.regions())
    for (const auto& b : region->blocks())
      for (const auto& inner : b->operations())
        if (inner->opcode() != Opcode::yield) combiner.push_back(std::string(inner->spec().mnemonic));
  r.props["identities"] = "[" + join(ids) + "]";
  r.props["element"] = join(elements);
  r.props["combiner"] = join(combiner, ",");
  if (op.opcode() == Opcode::scan) r.props["reverse"] = op.attr("reverse") && op.attr("reverse")->int_value ? "true" : "false";
  return r;
}

std::string loop_description(const Operation& op) {
  int depth = 0;
  for (const Operation* p = Body::parent_of(&op); p != nullptr; p = Body::parent_of(p))
    depth += p->opcode() == Opcode::for_ || p->opcode() == Opcode::loop;
  std::string d = std::string(op.spec().mnemonic) + " depth=" + std::to_string(depth);
  if (op.opcode() == Opcode::for_) {
    auto step = int_constant(op.operand_groups()[2].front());
    d += " step=" + (step ? std::to_string(*step) : std::string("dynamic"));
    d += " carried=" + std::to_string(op.operand_groups()[3].size());
  } else {
    d += " carried=" + std::to_string(op.operands().size());
  }
  return d;
}

/// The entry parameter `v` comes from through assumes, or nullptr.
const Value* root_parameter(const Value* v) {
  while (v != nullptr && v->defining_op() != nullptr && v->defining_op()->opcode() == Opcode::assume)
    v = v->defining_op()->operand(0);
  return v != nullptr && v->defining_op() == nullptr ? v : nullptr;
}

bool is_pointer_value(const Value* v) {
  const Type& t = v->type();
  return t.is(TypeKind::tile) && t.element().is(TypeKind::pointer);
}

Features extract(const Function& f) {
  Body body;
  collect(f.entry_block(), body);
  mark_live(body);
  Features out;

  // Canonical forms first: they decide which ops are absorbed.
  for (const Operation* op : body.ops) {
    if (!body.live.count(op) || body.absorbed.count(op) || Body::in_combiner(op)) continue;
    std::vector<const Operation*> parts;
    if (op->opcode() == Opcode::divi) {
      if (auto form = ceil_div_form(*op, parts)) {
        out.ceil_divs.insert(*form);
        body.absorbed.insert(op);
        body.absorbed.insert(parts.begin(), parts.end());
      }
    } else if (op->opcode() == Opcode::get_index_space_shape) {
      for (const auto& r : op->results())
        if (body.used(r.get())) out.ceil_divs.insert("get_index_space_shape");
      body.absorbed.insert(op);
    } else if (op->opcode() == Opcode::remi) {
      out.remainders.insert(remainder_form(body, *op, parts));
      body.absorbed.insert(op);
      body.absorbed.insert(parts.begin(), parts.end());
    }
  }

  for (const Operation* op : body.ops) {
    if (!body.live.count(op)) continue;
    // Rounding and flush-to-zero, combiners included (a maxf with ftz in a reduce matters too).
    if (op->opcode() != Opcode::divi) {
      const std::string mnemonic(op->spec().mnemonic);
      if (const AttrSpec* s = op->spec().find_attr("rounding_mode")) {
        const int64_t mode = op->enum_attr_or_default("rounding_mode");
        if (!s->has_default || mode != s->default_value)
          out.rounding[mnemonic + " rounding_mode"].insert(std::string(enum_keyword(EnumKind::rounding, mode)));
      }
      if (op->has_attr("flush_to_zero")) out.rounding[mnemonic + " flush_to_zero"].insert("ftz");
    }
    if (!body.counted(op)) continue;
    const Opcode code = op->opcode();
    switch (code) {
      case Opcode::constant: case Opcode::yield: case Opcode::continue_: case Opcode::break_:
      case Opcode::return_:
        break;
      case Opcode::assume: {
        const Attribute* p = op->attr("predicate");
        const Value* v = op->operand(0);
        if (p == nullptr || is_pointer_value(v)) break;  // pointer assumes: per parameter, below
        if (p->kind == AttrKind::div_by) out.scalar_div_by.insert(attr_text(*p));
        else out.bounded.insert(attr_text(*p));
        break;
      }
      default:
        out.counts[std::string(op->spec().mnemonic)]++;
        out.count_rules[std::string(op->spec().mnemonic)] = count_rule(code);
    }
    for (const auto& r : op->results())
      if (r->type().is(TypeKind::tile) && r->type().rank() > 0) out.tile_shapes.insert(shape_text(r->type().shape()));
    switch (code) {
      case Opcode::load_view_tko: case Opcode::store_view_tko: case Opcode::atomic_red_view_tko:
        out.view_path = true;
        out.accesses.push_back(describe_access(*op));
        break;
      case Opcode::load_ptr_tko: case Opcode::store_ptr_tko: case Opcode::atomic_cas_tko:
      case Opcode::atomic_rmw_tko:
        out.pointer_path = true;
        out.accesses.push_back(describe_access(*op));
        break;
      case Opcode::reduce: case Opcode::scan:
        out.reductions.push_back(describe_reduction(*op));
        break;
      case Opcode::mmaf: case Opcode::mmai: case Opcode::mmaf_scaled: {
        const Value* lhs = op->operand(0);
        const Value* rhs = op->operand(1);
        const Value* acc = op->operand(2);
        out.mmas.push_back({{"operands", element_name(lhs->type()) + "(" + shape_text(lhs->type().shape()) + ") x " +
                                             element_name(rhs->type()) + "(" + shape_text(rhs->type().shape()) + ")"},
                            {"accumulator", element_name(acc->type()) + "(" + shape_text(acc->type().shape()) + ")"}});
        break;
      }
      case Opcode::for_: case Opcode::loop:
        out.loops.push_back(loop_description(*op));
        break;
      default:
        break;
    }
  }

  // Parameters: kinds, and the div_by assumed on each pointer.
  for (size_t i = 0; i < f.num_parameters(); ++i) {
    const Value* p = f.parameter(i);
    out.parameters.insert(element_name(p->type()));
    if (!is_pointer_value(p)) continue;
    std::optional<std::string> predicate;
    std::vector<const Value*> frontier{p};
    while (!frontier.empty()) {
      const Value* v = frontier.back();
      frontier.pop_back();
      for (const Operation* u : body.users_of(v))
        if (u->opcode() == Opcode::assume && body.live.count(u)) {
          if (const Attribute* a = u->attr("predicate"); a && a->kind == AttrKind::div_by) predicate = attr_text(*a);
          frontier.push_back(u->result(0));
        }
    }
    if (predicate) out.pointer_assumes.insert(*predicate);
  }
  // Assumes on pointer tiles that are not parameters (a pointer path's offsets).
  for (const Operation* op : body.ops)
    if (op->opcode() == Opcode::assume && body.counted(op) && is_pointer_value(op->operand(0)) &&
        root_parameter(op->operand(0)) == nullptr)
      if (const Attribute* a = op->attr("predicate")) out.pointer_assumes.insert(attr_text(*a) + " on a tile");

  out.entry_hints = flatten_hints(f.hints() ? &*f.hints() : nullptr);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Comparison.

Severity severity_of(Rule rule, DiffStatus status) {
  const Policy& p = policy(rule);
  switch (status) {
    case DiffStatus::differs: return p.differs;
    case DiffStatus::missing: return p.missing;
    case DiffStatus::extra: return p.extra;
    default: return Severity::info;
  }
}

class Comparer {
 public:
  std::vector<DiffRow> rows;

  void row(Rule rule, std::string feature, std::string ref, std::string gen, DiffStatus status,
           std::optional<Severity> severity = std::nullopt) {
    rows.push_back({std::move(feature), std::string(policy(rule).name), std::move(ref), std::move(gen), status,
                    severity.value_or(severity_of(rule, status))});
  }

  /// Two optional values: MATCH, DIFFERS, MISSING (ref only) or EXTRA (gen only); nothing when both absent.
  void value(Rule rule, std::string feature, const std::string& ref, const std::string& gen) {
    const bool has_ref = ref != "-" && !ref.empty(), has_gen = gen != "-" && !gen.empty();
    if (!has_ref && !has_gen) return;
    const DiffStatus status = ref == gen ? DiffStatus::match
                              : !has_gen ? DiffStatus::missing
                              : !has_ref ? DiffStatus::extra
                                         : DiffStatus::differs;
    row(rule, std::move(feature), has_ref ? ref : "-", has_gen ? gen : "-", status);
  }

  void count(Rule rule, std::string feature, int ref, int gen, std::string ref_text = {}, std::string gen_text = {}) {
    if (ref == 0 && gen == 0) return;
    if (ref_text.empty()) ref_text = std::to_string(ref);
    if (gen_text.empty()) gen_text = std::to_string(gen);
    const DiffStatus status = ref == gen ? DiffStatus::match
                              : gen == 0 ? DiffStatus::missing
                              : ref == 0 ? DiffStatus::extra
                                         : DiffStatus::differs;
    std::optional<Severity> severity;
    if (status != DiffStatus::match && policy(rule).small_delta && std::abs(ref - gen) <= 2)
      severity = policy(rule).small_delta;
    row(rule, std::move(feature), ref_text, gen_text, status, severity);
  }

  /// Multisets: MATCH, or EXTRA when gen only adds, MISSING when gen only lacks, else DIFFERS.
  void multiset(Rule rule, std::string feature, const std::multiset<std::string>& ref,
                const std::multiset<std::string>& gen) {
    if (ref.empty() && gen.empty()) return;
    const DiffStatus status = ref == gen        ? DiffStatus::match
                              : includes(gen, ref) ? DiffStatus::extra
                              : includes(ref, gen) ? DiffStatus::missing
                                                   : DiffStatus::differs;
    row(rule, std::move(feature), multiset_text(ref), multiset_text(gen), status);
  }
};

/// Pairs items of the two sides: first by the strictest key, then by looser ones; the last key may be
/// empty to pair the rest in program order. Returns (ref index or -1, gen index or -1) in ref order,
/// unpaired generated items last.
template <class T>
std::vector<std::pair<int, int>> pair_items(const std::vector<T>& ref, const std::vector<T>& gen,
                                            const std::vector<std::function<std::string(const T&)>>& keys) {
  std::vector<int> ref_match(ref.size(), -1), gen_match(gen.size(), -1);
  for (const auto& key : keys)
    for (size_t r = 0; r < ref.size(); ++r) {
      if (ref_match[r] >= 0) continue;
      const std::string k = key(ref[r]);
      for (size_t g = 0; g < gen.size(); ++g)
        if (gen_match[g] < 0 && key(gen[g]) == k) {
          ref_match[r] = static_cast<int>(g);
          gen_match[g] = static_cast<int>(r);
          break;
        }
    }
  std::vector<std::pair<int, int>> out;
  for (size_t r = 0; r < ref.size(); ++r) out.emplace_back(static_cast<int>(r), ref_match[r]);
  for (size_t g = 0; g < gen.size(); ++g)
    if (gen_match[g] < 0) out.emplace_back(-1, static_cast<int>(g));
  return out;
}

std::string prop(const std::map<std::string, std::string>& props, const std::string& key) {
  auto it = props.find(key);
  return it == props.end() ? "-" : it->second;
}

bool innermost_unit_stride(const std::string& strides) { return strides.ends_with(",1]") || strides == "[1]"; }

void compare_accesses(Comparer& c, const Features& ref, const Features& gen) {
  using Key = std::function<std::string(const Access&)>;
  const std::vector<Key> keys = {
      [](const Access& a) { return a.descriptor(); },
      [](const Access& a) { return a.kind + prop(a.props, "element") + prop(a.props, "tile"); },
      [](const Access& a) { return a.kind + prop(a.props, "tile"); },
      [](const Access& a) { return a.kind; },
  };
  std::map<std::string, int> ordinal;
  for (auto [r, g] : pair_items(ref.accesses, gen.accesses, keys)) {
    const Access& any = r >= 0 ? ref.accesses[r] : gen.accesses[g];
    const std::string name = any.kind + " #" + std::to_string(ordinal[any.kind]++);
    if (r < 0 || g < 0) {
      c.row(Rule::memory_op, name, r >= 0 ? any.descriptor() : "-", g >= 0 ? any.descriptor() : "-",
            r >= 0 ? DiffStatus::missing : DiffStatus::extra);
      continue;
    }
    const auto& rp = ref.accesses[r].props;
    const auto& gp = gen.accesses[g].props;
    auto both = [&](const std::string& key) { return prop(rp, key) != "-" || prop(gp, key) != "-"; };
    c.value(Rule::view_tile, name + " tile", prop(rp, "tile"), prop(gp, "tile"));
    c.value(Rule::element_type, name + " element", prop(rp, "element"), prop(gp, "element"));
    if (both("view")) c.value(Rule::memory_op, name + " view kind", prop(rp, "view"), prop(gp, "view"));
    if (both("strides")) {
      const bool lost_unit = innermost_unit_stride(prop(rp, "strides")) && !innermost_unit_stride(prop(gp, "strides"));
      c.value(lost_unit ? Rule::view_unit_stride : Rule::view_layout, name + " strides", prop(rp, "strides"),
              prop(gp, "strides"));
    }
    if (both("shape")) c.value(Rule::view_layout, name + " extents", prop(rp, "shape"), prop(gp, "shape"));
    if (both("dim_map")) c.value(Rule::view_layout, name + " dim_map", prop(rp, "dim_map"), prop(gp, "dim_map"));
    if (rp.count("padding") || gp.count("padding")) {
      const std::string rpad = prop(rp, "padding"), gpad = prop(gp, "padding");
      if (rpad == gpad) c.row(Rule::view_padding, name + " padding", rpad, gpad, DiffStatus::match);
      else c.value(Rule::view_padding, name + " padding", rpad, gpad);
    }
    if (both("mask")) c.value(Rule::view_padding, name + " mask", prop(rp, "mask"), prop(gp, "mask"));
    if (both("latency")) c.value(Rule::access_latency, name + " latency", prop(rp, "latency"), prop(gp, "latency"));
    if (both("allow_tma")) {
      const bool no_tma = prop(rp, "allow_tma") == "false" || prop(gp, "allow_tma") == "false";
      c.value(no_tma ? Rule::access_no_tma : Rule::access_allow_tma, name + " allow_tma", prop(rp, "allow_tma"),
              prop(gp, "allow_tma"));
    }
  }
}

void compare_reductions(Comparer& c, const Features& ref, const Features& gen) {
  using Key = std::function<std::string(const Reduction&)>;
  const std::vector<Key> keys = {
      [](const Reduction& r) {
        std::string d = r.kind;
        for (const auto& [k, v] : r.props) d += " " + k + "=" + v;
        return d;
      },
      [](const Reduction& r) { return r.kind + prop(r.props, "combiner") + prop(r.props, "identities"); },
      [](const Reduction& r) { return r.kind + prop(r.props, "combiner"); },
      [](const Reduction& r) { return r.kind; },
  };
  std::map<std::string, int> ordinal;
  for (auto [r, g] : pair_items(ref.reductions, gen.reductions, keys)) {
    const Reduction& any = r >= 0 ? ref.reductions[r] : gen.reductions[g];
    const std::string name = any.kind + " #" + std::to_string(ordinal[any.kind]++);
    if (r < 0 || g < 0) {
      const std::string text = any.kind + " " + prop(any.props, "combiner") + " axis=" + prop(any.props, "axis");
      c.row(Rule::reduction, name, r >= 0 ? text : "-", g >= 0 ? text : "-",
            r >= 0 ? DiffStatus::missing : DiffStatus::extra);
      continue;
    }
    for (const char* key : {"axis", "identities", "combiner", "element", "reverse"}) {
      const auto& rp = ref.reductions[r].props;
      const auto& gp = gen.reductions[g].props;
      if (rp.count(key) || gp.count(key))
        c.value(Rule::reduction, name + " " + key, prop(rp, key), prop(gp, key));
    }
  }
}

void compare_mmas(Comparer& c, const Features& ref, const Features& gen) {
  using M = std::map<std::string, std::string>;
  const std::vector<std::function<std::string(const M&)>> keys = {
      [](const M& m) { return prop(m, "operands") + prop(m, "accumulator"); },
      [](const M& m) { return prop(m, "operands"); },
      [](const M&) { return std::string(); },
  };
  int n = 0;
  for (auto [r, g] : pair_items(ref.mmas, gen.mmas, keys)) {
    const std::string name = "mma #" + std::to_string(n++);
    for (const char* key : {"operands", "accumulator"})
      c.value(Rule::mma, name + " " + key, r >= 0 ? prop(ref.mmas[r], key) : "-", g >= 0 ? prop(gen.mmas[g], key) : "-");
  }
}

void compare_loops(Comparer& c, const Features& ref, const Features& gen) {
  const std::vector<std::function<std::string(const std::string&)>> keys = {
      [](const std::string& s) { return s; },
      [](const std::string&) { return std::string(); },
  };
  int n = 0;
  for (auto [r, g] : pair_items(ref.loops, gen.loops, keys))
    c.value(Rule::loop_structure, "loop #" + std::to_string(n++), r >= 0 ? ref.loops[r] : "-",
            g >= 0 ? gen.loops[g] : "-");
}

/// ceil-div or remainder: equal counts in other spellings are SEMANTIC_EQUIV.
void compare_forms(Comparer& c, Rule rule, const std::string& feature, const std::multiset<std::string>& ref,
                   const std::multiset<std::string>& gen) {
  if (ref.empty() && gen.empty()) return;
  const std::string rt = std::to_string(ref.size()) + " (" + multiset_text(ref) + ")";
  const std::string gt = std::to_string(gen.size()) + " (" + multiset_text(gen) + ")";
  if (ref.size() == gen.size()) {
    c.row(rule, feature, rt, gt, ref == gen ? DiffStatus::match : DiffStatus::semantic_equiv);
    return;
  }
  c.count(rule, feature, static_cast<int>(ref.size()), static_cast<int>(gen.size()), rt, gt);
}

std::string memory_path(const Features& f) {
  return f.view_path && f.pointer_path ? "mixed" : f.view_path ? "view" : f.pointer_path ? "pointer" : "none";
}

/// FAIL with an unexplained CRITICAL row, PASS_WITH_NOTES with a WARN or an explained CRITICAL row.
Verdict verdict_of(const std::vector<DiffRow>& rows) {
  Verdict verdict = Verdict::pass;
  for (const DiffRow& row : rows) {
    if (row.status == DiffStatus::match || row.status == DiffStatus::semantic_equiv ||
        row.severity == Severity::info)
      continue;
    if (row.severity == Severity::critical && row.why.empty()) return Verdict::fail;
    verdict = Verdict::pass_with_notes;
  }
  return verdict;
}

}  // namespace

std::string_view diff_status_name(DiffStatus status) {
  switch (status) {
    case DiffStatus::match: return "MATCH";
    case DiffStatus::semantic_equiv: return "SEMANTIC_EQUIV";
    case DiffStatus::differs: return "DIFFERS";
    case DiffStatus::missing: return "MISSING";
    case DiffStatus::extra: return "EXTRA";
  }
  return "?";
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::info: return "INFO";
    case Severity::warn: return "WARN";
    case Severity::critical: return "CRITICAL";
  }
  return "?";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "PASS";
    case Verdict::pass_with_notes: return "PASS_WITH_NOTES";
    case Verdict::fail: return "FAIL";
  }
  return "?";
}

int verdict_exit_code(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return 0;
    case Verdict::pass_with_notes: return 2;
    case Verdict::fail: return 1;
  }
  return 1;
}

DiffReport diff_functions(const Function& ref_fn, const Function& gen_fn) {
  const Features ref = extract(ref_fn);
  const Features gen = extract(gen_fn);
  Comparer c;

  c.value(Rule::memory_op, "memory path", memory_path(ref), memory_path(gen));
  compare_accesses(c, ref, gen);
  compare_mmas(c, ref, gen);
  compare_reductions(c, ref, gen);
  compare_loops(c, ref, gen);

  std::set<std::string> ops;
  for (const auto& [name, n] : ref.counts) ops.insert(name);
  for (const auto& [name, n] : gen.counts) ops.insert(name);
  for (const std::string& name : ops) {
    auto find = [&](const Features& f) { auto it = f.counts.find(name); return it == f.counts.end() ? 0 : it->second; };
    const Rule rule = ref.count_rules.count(name) ? ref.count_rules.at(name) : gen.count_rules.at(name);
    c.count(rule, "count " + name, find(ref), find(gen));
  }
  compare_forms(c, Rule::ceil_div, "index ceil_div", ref.ceil_divs, gen.ceil_divs);
  compare_forms(c, Rule::index_count, "index remainder", ref.remainders, gen.remainders);

  {
    std::multiset<std::string> rs(ref.tile_shapes.begin(), ref.tile_shapes.end());
    std::multiset<std::string> gs(gen.tile_shapes.begin(), gen.tile_shapes.end());
    if (!rs.empty() || !gs.empty())
      c.row(Rule::tile_shapes, "tile shapes", multiset_text(rs), multiset_text(gs),
            rs == gs ? DiffStatus::match : gs.empty() ? DiffStatus::missing : rs.empty() ? DiffStatus::extra : DiffStatus::differs);
  }

  std::set<std::string> hints;
  for (const auto& [k, v] : ref.entry_hints) hints.insert(k);
  for (const auto& [k, v] : gen.entry_hints) hints.insert(k);
  for (const std::string& h : hints) c.value(Rule::entry_hint, "hint " + h, prop(ref.entry_hints, h), prop(gen.entry_hints, h));

  c.multiset(gen.pointer_path ? Rule::pointer_assume_ptr : Rule::pointer_assume_view, "assume pointer div_by",
             ref.pointer_assumes, gen.pointer_assumes);
  c.multiset(Rule::scalar_div_by, "assume scalar div_by", ref.scalar_div_by, gen.scalar_div_by);
  c.multiset(Rule::scalar_bounded, "assume bounded", ref.bounded, gen.bounded);

  std::set<std::string> rounding;
  for (const auto& [k, v] : ref.rounding) rounding.insert(k);
  for (const auto& [k, v] : gen.rounding) rounding.insert(k);
  static const std::multiset<std::string> none;
  for (const std::string& k : rounding) {
    auto find = [&](const Features& f) -> const std::multiset<std::string>& {
      auto it = f.rounding.find(k);
      return it == f.rounding.end() ? none : it->second;
    };
    c.multiset(Rule::rounding_ftz, k, find(ref), find(gen));
  }
  c.multiset(Rule::signature, "entry parameters", ref.parameters, gen.parameters);

  DiffReport report{ref_fn.name(), gen_fn.name(), std::move(c.rows), Verdict::pass};
  report.verdict = verdict_of(report.rows);
  return report;
}

std::vector<Explanation> parse_explanations(std::string_view text, std::string_view source) {
  static constexpr std::string_view kKeys[] = {"kernel", "feature", "reference", "generated", "why"};
  std::vector<Explanation> explanations;
  std::map<std::string, std::string, std::less<>> record;
  size_t record_line = 0;
  auto fail = [&](size_t line, const std::string& what) -> void {
    throw UserError(std::string(source) + ":" + std::to_string(line) + ": " + what);
  };
  auto finish = [&] {
    if (record.empty()) return;
    for (std::string_view key : kKeys)
      if (!record.count(key)) fail(record_line, "the explanation has no '" + std::string(key) + ":' line");
    explanations.push_back(
        {record["kernel"], record["feature"], record["reference"], record["generated"], record["why"]});
    record.clear();
  };
  size_t number = 0;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.starts_with("#")) continue;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      finish();
      continue;
    }
    const size_t colon = line.find(": ");
    const std::string key(line.substr(0, colon));
    if (colon == std::string_view::npos ||
        std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
      fail(number, "expected 'kernel:', 'feature:', 'reference:', 'generated:' or 'why:', not '" +
                       std::string(line) + "'");
    if (record.count(key)) fail(number, "'" + key + ":' given twice in one explanation");
    if (record.empty()) record_line = number;
    record[key] = std::string(line.substr(colon + 2));
  }
  finish();
  return explanations;
}

std::vector<Explanation> explain(DiffReport& report, const std::vector<Explanation>& explanations) {
  std::vector<Explanation> stale;
  for (const Explanation& e : explanations) {
    if (e.reference_kernel != report.reference_kernel) continue;
    auto pinned = [&](const DiffRow& r) {
      return r.severity == Severity::critical && r.status != DiffStatus::match &&
             r.status != DiffStatus::semantic_equiv && r.feature == e.feature && r.reference == e.reference &&
             r.generated == e.generated;
    };
    auto row = std::find_if(report.rows.begin(), report.rows.end(), pinned);
    if (row == report.rows.end())
      stale.push_back(e);
    else
      row->why = e.why;
  }
  report.verdict = verdict_of(report.rows);
  return stale;
}

const Function& select_kernel(const Module& module, const std::optional<std::string>& name, std::string_view role) {
  std::vector<std::string> names;
  for (const auto& f : module.functions()) names.push_back("@" + f->name());
  const std::string listing = names.empty() ? "none" : join(names);
  if (name) {
    if (const Function* f = module.find_function(*name)) return *f;
    throw UserError("the " + std::string(role) + " module has no kernel @" + *name + " (it has: " + listing + ")");
  }
  if (module.functions().size() == 1) return *module.functions().front();
  if (module.functions().empty()) throw UserError("the " + std::string(role) + " module has no kernels");
  throw UserError("the " + std::string(role) + " module has " + std::to_string(names.size()) +
                  " kernels (" + listing + "): choose one with --kernel, --ref-kernel or --gen-kernel");
}

std::string format_diff_table(const DiffReport& report) {
  const std::vector<std::string> header = {"FEATURE", "REFERENCE", "GENERATED", "STATUS", "SEVERITY"};
  std::vector<std::vector<std::string>> lines = {header};
  for (const DiffRow& r : report.rows)
    lines.push_back({r.feature, r.reference, r.generated, std::string(diff_status_name(r.status)),
                     std::string(severity_name(r.severity)) + (r.why.empty() ? "" : ", explained")});
  // Widths in code points: "×" and "Δ" are two bytes but one column.
  auto width = [](const std::string& s) {
    size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
  };
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& l : lines)
    for (size_t i = 0; i < l.size(); ++i) widths[i] = std::max(widths[i], width(l[i]));
  std::ostringstream out;
  out << "reference: @" << report.reference_kernel << "\ngenerated: @" << report.generated_kernel << "\n\n";
  for (const auto& l : lines) {
    std::string text;
    for (size_t i = 0; i < l.size(); ++i) {
      text += l[i];
      if (i + 1 < l.size()) text += std::string(widths[i] - width(l[i]) + 2, ' ');
    }
    out << text << "\n";
  }
  int critical = 0, explained = 0, warn = 0;
  std::string reasons;
  for (const DiffRow& r : report.rows)
    if (r.status != DiffStatus::match && r.status != DiffStatus::semantic_equiv) {
      critical += r.severity == Severity::critical;
      explained += !r.why.empty();
      warn += r.severity == Severity::warn;
      if (!r.why.empty()) reasons += "  " + r.feature + ": " + r.why + "\n";
    }
  if (!reasons.empty()) out << "\nexplained:\n" << reasons;
  out << "\n" << critical << " critical";
  if (explained) out << " (" << explained << " explained)";
  out << ", " << warn << " warnings\nverdict: " << verdict_name(report.verdict) << "\n";
  return out.str();
}

namespace {
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}
}  // namespace

std::string format_diff_json(const DiffReport& report) {
  std::ostringstream out;
  out << "{\n  \"reference_kernel\": " << json_string(report.reference_kernel)
      << ",\n  \"generated_kernel\": " << json_string(report.generated_kernel) << ",\n  \"rows\": [";
  for (size_t i = 0; i < report.rows.size(); ++i) {
    const DiffRow& r = report.rows[i];
    out << (i ? ",\n" : "\n") << "    {\"feature\": " << json_string(r.feature)
        << ", \"rule\": " << json_string(r.rule) << ", \"reference\": " << json_string(r.reference)
        << ", \"generated\": " << json_string(r.generated) << ", \"status\": \"" << diff_status_name(r.status)
        << "\", \"severity\": \"" << severity_name(r.severity) << "\"";
    if (!r.why.empty()) out << ", \"why\": " << json_string(r.why);
    out << "}";
  }
  out << "\n  ],\n  \"verdict\": \"" << verdict_name(report.verdict) << "\"\n}\n";
  return out.str();
}

}  // namespace cutile::ir
