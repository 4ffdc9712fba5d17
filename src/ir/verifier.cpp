// The Tile IR verifier. Rules follow the cuda_tile dialect's own verifiers (ODS type constraints, op
// verify() functions, type verifiers) that tileiras runs after decoding bytecode, plus the version
// gates of the bytecode writer. Generic rules (operand groups, results, attributes, versions) come
// from the op table; per-op rules are grouped by op family.
#include "cutile/ir/verifier.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <unordered_set>

#include "cutile/error.hpp"

namespace cutile::ir {
namespace {

using E = ElementType;

/// Thrown by the checks of one op after its first problem; caught per op.
struct Reject {
  std::string message;
};

[[noreturn]] void fail(std::string message) {
  throw Reject{std::move(message)};
}

constexpr int64_t kMaxTileElements = int64_t{1} << 24;

bool is_pow2(int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

// ---- element and type predicates ---------------------------------------------------------------

/// i1 .. i64: what integer ops accept (i4 only flows through exti/trunci/pack/unpack and memory).
bool is_op_int(E e) {
  return e == E::i1 || e == E::i8 || e == E::i16 || e == E::i32 || e == E::i64;
}
/// Any int (i1..i64) or float: the pointee and constant element types (no i4).
bool is_number(E e) {
  return e != E::i4;
}

std::optional<E> scalar_element(const Type& t) {
  if (!t.is(TypeKind::tile) || !t.element().is(TypeKind::element)) return std::nullopt;
  return t.element().element_type();
}

template <class Pred>
bool tile_of(const Type& t, Pred pred) {
  const std::optional<E> e = scalar_element(t);
  return e && pred(*e);
}

bool is_pointer_tile(const Type& t) {
  return t.is(TypeKind::tile) && t.element().is(TypeKind::pointer);
}
bool is_scalar_int(const Type& t) {
  return t.is_scalar_tile() && tile_of(t, is_op_int);
}
bool is_view(const Type& t) {
  return t.is(TypeKind::partition_view) || t.is(TypeKind::strided_view) ||
         t.is(TypeKind::gather_scatter_view);
}
bool shapes_match(const Type& a, const Type& b) {
  return a.is(TypeKind::tile) && b.is(TypeKind::tile) && a.shape() == b.shape();
}

std::string name(E e) {
  return std::string(element_type_name(e));
}
std::string list(const std::vector<Type>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i].str();
  return out + ")";
}

template <class T>
std::string shape_text(const std::vector<T>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + "]";
}

/// Storage bytes of one element in a dense constant (sub-byte types take a whole byte).
int64_t storage_bytes(E e) {
  return (element_bits(e) + 7) / 8;
}

// ---- type validity --------------------------------------------------------------------------------

/// Why `t` is not a valid type at `version`; nullopt when it is.
std::optional<std::string> type_problem(const Type& t, Version version);

std::optional<std::string> tile_shape_problem(const std::vector<int64_t>& shape, const Type& element) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (!is_pow2(d)) return "tile dimensions must be positive powers of two, got " + shape_text(shape);
    if (n > kMaxTileElements / d)
      return "tile " + shape_text(shape) + " exceeds the maximum of " + std::to_string(kMaxTileElements) +
             " elements";
    n *= d;
  }
  if (element.is(TypeKind::element) && element.element_type() == E::f4e2m1fn &&
      (shape.empty() || std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d % 2 != 0; })))
    return "f4E2M1FN tiles need an even number of elements, got " + shape_text(shape);
  return std::nullopt;
}

std::optional<std::string> view_problem(const Type& t, Version version) {
  const Type tv = t.tensor_view();
  if (!tv.is(TypeKind::tensor_view)) return "a view must wrap a tensor_view, got " + tv.str();
  if (auto p = type_problem(tv, version)) return p;
  const std::vector<int32_t>& ts = t.tile_shape();
  if (ts.empty()) return "view tile shape must have rank >= 1";
  if (static_cast<int64_t>(ts.size()) != tv.rank())
    return "view tile rank " + std::to_string(ts.size()) + " must equal the tensor_view rank " +
           std::to_string(tv.rank());
  if (!t.is(TypeKind::gather_scatter_view)) {
    const std::vector<int32_t>& dm = t.dim_map();
    if (dm.size() != ts.size())
      return "dim_map must map all " + std::to_string(ts.size()) + " tile dimensions, got " + shape_text(dm);
    std::vector<bool> used(ts.size(), false);
    for (int32_t d : dm) {
      if (d < 0 || static_cast<size_t>(d) >= ts.size() || used[static_cast<size_t>(d)])
        return "dim_map must be a permutation of the tensor_view dimensions, got " + shape_text(dm);
      used[static_cast<size_t>(d)] = true;
    }
  } else if (t.sparse_dim() < 0 || static_cast<size_t>(t.sparse_dim()) >= ts.size()) {
    return "sparse_dim " + std::to_string(t.sparse_dim()) + " must be < tile rank " +
           std::to_string(ts.size());
  }
  if (t.is(TypeKind::strided_view)) {
    const std::vector<int32_t>& st = t.traversal_strides();
    if (st.size() != ts.size() || std::any_of(st.begin(), st.end(), [](int32_t s) { return s <= 0; }))
      return "traversal_strides must be " + std::to_string(ts.size()) + " positive values, got " +
             shape_text(st);
  }
  if (auto p = tile_shape_problem(std::vector<int64_t>(ts.begin(), ts.end()), tv.element())) return p;
  if (t.padding() && *t.padding() != PaddingValue::zero && !is_float(tv.element().element_type()))
    return "padding_value " + std::string(padding_value_name(*t.padding())) +
           " needs a float element type, got " + tv.element().str();
  return std::nullopt;
}

std::optional<std::string> type_problem(const Type& t, Version version) {
  if (t.is_null()) return "missing type";
  switch (t.kind()) {
    case TypeKind::element:
      if (element_type_since(t.element_type()) > version)
        return "element type " + t.str() + " requires bytecode " + element_type_since(t.element_type()).str();
      return std::nullopt;
    case TypeKind::pointer:
      if (!t.element().is(TypeKind::element) || !is_number(t.element().element_type()))
        return "pointee must be an integer or float type, got " + t.str();
      return type_problem(t.element(), version);
    case TypeKind::tile:
      if (!t.element().is(TypeKind::element) && !t.element().is(TypeKind::pointer))
        return "tile element must be a number or a pointer, got " + t.str();
      if (auto p = type_problem(t.element(), version)) return p;
      return tile_shape_problem(t.shape(), t.element());
    case TypeKind::tensor_view: {
      if (!t.element().is(TypeKind::element) || !is_number(t.element().element_type()))
        return "tensor_view element must be an integer or float type, got " + t.str();
      if (auto p = type_problem(t.element(), version)) return p;
      if (t.shape().size() != t.strides().size())
        return "tensor_view shape and strides must have the same rank, got " + t.str();
      auto bad = [](int64_t v) { return v <= 0 && v != kDynamic; };
      if (std::any_of(t.shape().begin(), t.shape().end(), bad) ||
          std::any_of(t.strides().begin(), t.strides().end(), bad))
        return "tensor_view static sizes and strides must be > 0, got " + t.str();
      return std::nullopt;
    }
    case TypeKind::strided_view:
    case TypeKind::gather_scatter_view:
      if (version < v13_3) return "type " + t.str() + " requires bytecode 13.3";
      return view_problem(t, version);
    case TypeKind::partition_view:
      return view_problem(t, version);
    case TypeKind::function:
      for (const Type& in : t.inputs())
        if (auto p = type_problem(in, version)) return p;
      return std::nullopt;
    case TypeKind::token:
      return std::nullopt;
  }
  return "unknown type";
}

// ---- expectations (each fails with what was expected and what was found) -------------------------

template <class Pred>
void expect_tile(const Type& t, const std::string& what, Pred pred, const std::string& allowed) {
  if (!tile_of(t, pred)) fail(what + " must be a tile of " + allowed + ", got " + t.str());
}
void expect_same(const Type& a, const Type& b, const std::string& what) {
  if (a != b) fail(what + ": " + a.str() + " vs " + b.str());
}
void expect_same_shape(const Type& a, const Type& b, const std::string& what) {
  if (!shapes_match(a, b)) fail(what + " must have the same shape: " + a.str() + " vs " + b.str());
}
void expect_token(const Type& t, const std::string& what) {
  if (!t.is(TypeKind::token)) fail(what + " must be a token, got " + t.str());
}

const std::string kBaseFloats = "f16/bf16/f32/f64";
const std::string kInts = "i1/i8/i16/i32/i64";

// ---- optimization hints ---------------------------------------------------------------------------

constexpr std::array<std::string_view, 11> kArchKeys = {
    "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};

std::optional<int64_t> hint_int(const Attribute& a) {
  if (a.kind == AttrKind::integer || a.kind == AttrKind::boolean) return a.int_value;
  return std::nullopt;
}

/// `allowed` lists the hint names valid for the op (entry or load/store kind).
void check_hints(const Attribute& hints, const std::vector<std::string_view>& allowed, Version version) {
  if (hints.kind != AttrKind::optimization_hints)
    fail("optimization hints must be an optimization_hints attribute {arch: {hint: value}}");
  for (const auto& [arch, dict] : hints.entries) {
    const bool is_default = arch == "default";
    if (!is_default && std::find(kArchKeys.begin(), kArchKeys.end(), arch) == kArchKeys.end())
      fail("unknown optimization hint architecture key '" + arch + "' (expected sm_80 .. sm_121 or default)");
    if (is_default && version < v13_3) fail("optimization hint key 'default' requires bytecode 13.3");
    if (dict.kind != AttrKind::dictionary) fail("optimization hints for '" + arch + "' must be a dictionary");
    const bool ampere_or_ada = arch.starts_with("sm_8");
    for (const auto& [key, value] : dict.entries) {
      const std::string where = arch + "." + key;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail("unknown optimization hint '" + where + "' for this op");
      const std::optional<int64_t> v = hint_int(value);
      if (key == "allow_tma") {
        if (value.kind != AttrKind::boolean &&
            !(value.kind == AttrKind::integer && value.type.is(TypeKind::element) &&
              value.type.element_type() == E::i1))
          fail("optimization hint " + where + " must be a boolean");
        continue;
      }
      if (!v || value.kind != AttrKind::integer) fail("optimization hint " + where + " must be an integer");
      if (key == "num_cta_in_cga") {
        if (ampere_or_ada && *v != 1)
          fail("optimization hint " + where + " must be 1 on sm_8x, got " + std::to_string(*v));
        if (!is_pow2(*v) || *v > 16)
          fail("optimization hint " + where + " must be a power of two <= 16, got " + std::to_string(*v));
      } else if (key == "num_worker_warps_per_cta") {
        if (version < v13_3) fail("optimization hint num_worker_warps_per_cta requires bytecode 13.3");
        if (!is_pow2(*v) || *v > 32)
          fail("optimization hint " + where + " must be a power of two <= 32, got " + std::to_string(*v));
      } else if (key == "occupancy") {
        if (*v < 1 || *v > 32)
          fail("optimization hint " + where + " must be in [1, 32], got " + std::to_string(*v));
      } else if (key == "latency") {
        if (*v < 1 || *v > 10)
          fail("optimization hint " + where + " must be in [1, 10], got " + std::to_string(*v));
      }
    }
  }
}

// ---- identifiers ----------------------------------------------------------------------------------

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// Expected raw storage of a dense constant: one element (splat) or all of them.
bool dense_size_ok(const Attribute& value) {
  const Type& t = value.type;
  const E e = t.element().element_type();
  const int64_t n = t.num_elements();
  const int64_t size = static_cast<int64_t>(value.raw.size());
  if (size == 0) return false;
  if (e == E::i1) {
    if (size == (n + 7) / 8) return true;
    return size == 1 && (value.raw[0] == 0x00 || value.raw[0] == 0xFF);
  }
  return size == storage_bytes(e) || size == storage_bytes(e) * n;
}

std::optional<std::string> dense_problem(const Attribute& value, Version version) {
  if (value.kind != AttrKind::dense_elements) return "value must be a dense elements attribute";
  if (!value.type.is(TypeKind::tile) || !value.type.element().is(TypeKind::element) ||
      !is_number(value.type.element().element_type()))
    return "dense value must be a tile of integers or floats, got " + value.type.str();
  if (auto p = type_problem(value.type, version)) return p;
  if (!dense_size_ok(value))
    return "dense storage of " + std::to_string(value.raw.size()) + " bytes does not fit " +
           value.type.str() + " (expected one element or all of them)";
  return std::nullopt;
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

  // -- accessors (valid after check_structure)
  static const Type& in(const Operation& op, size_t group) { return op.operand_groups()[group][0]->type(); }
  static const Type& out(const Operation& op, size_t i = 0) { return op.result(i)->type(); }
  static const std::vector<Value*>& group(const Operation& op, size_t g) { return op.operand_groups()[g]; }
  static std::optional<Type> optional_in(const Operation& op, size_t g) {
    const auto& v = op.operand_groups()[g];
    return v.empty() ? std::nullopt : std::optional<Type>(v[0]->type());
  }
  static RoundingMode rounding(const Operation& op, std::string_view attr = "rounding_mode") {
    return static_cast<RoundingMode>(op.enum_attr_or_default(attr));
  }
  static std::string keyword(EnumKind k, int64_t v) { return std::string(enum_keyword(k, v)); }

  // -- per-op semantics
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
        expect_tile(in(op, 0), "source", is_arithmetic_float, kBaseFloats);
        expect_same(in(op, 0), out(op), "result type must equal the source type");
        return check_float_modifiers(op);
      case Opcode::addf:
      case Opcode::subf:
      case Opcode::mulf:
      case Opcode::divf:
      case Opcode::remf:
      case Opcode::maxf:
      case Opcode::minf:
      case Opcode::pow:
      case Opcode::atan2:
        expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
        expect_same(in(op, 0), in(op, 1), "operand types must match");
        expect_same(in(op, 0), out(op), "result type must equal the operand type");
        return check_float_modifiers(op);
      case Opcode::fma:
        expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
        expect_same(in(op, 0), in(op, 1), "operand types must match");
        expect_same(in(op, 0), in(op, 2), "operand types must match");
        expect_same(in(op, 0), out(op), "result type must equal the operand type");
        return check_float_modifiers(op);
      case Opcode::fpowi:
        expect_tile(in(op, 0), "source", is_arithmetic_float, kBaseFloats);
        expect_tile(
            in(op, 1), "exponent", [](E e) { return e == E::i1 || e == E::i8 || e == E::i16 || e == E::i32; },
            "i1/i8/i16/i32");
        expect_same_shape(in(op, 0), in(op, 1), "source and exponent");
        return expect_same(in(op, 0), out(op), "result type must equal the source type");
      case Opcode::absi:
      case Opcode::negi:
        expect_tile(in(op, 0), "source", is_op_int, kInts);
        expect_same(in(op, 0), out(op), "result type must equal the source type");
        if (op.opcode() == Opcode::negi &&
            op.enum_attr_or_default("overflow") == static_cast<int64_t>(IntegerOverflow::no_unsigned_wrap))
          fail("overflow 'no_unsigned_wrap' is not supported (negi has signed semantics)");
        return;
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
        expect_tile(in(op, 0), "lhs", is_op_int, kInts);
        expect_same(in(op, 0), in(op, 1), "operand types must match");
        expect_same(in(op, 0), out(op), "result type must equal the operand type");
        if (op.opcode() == Opcode::divi) check_divi(op);
        return;
      case Opcode::cmpf:
      case Opcode::cmpi: {
        const bool f = op.opcode() == Opcode::cmpf;
        if (f)
          expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
        else
          expect_tile(in(op, 0), "lhs", is_op_int, kInts);
        expect_same(in(op, 0), in(op, 1), "operand types must match");
        const Type want = Type::tile(in(op, 0).shape(), Type::element(E::i1));
        return expect_same(out(op), want, "result must be an i1 tile of the operand shape");
      }
      case Opcode::select:
        expect_tile(
            in(op, 0), "condition", [](E e) { return e == E::i1; }, "i1");
        expect_same(in(op, 1), in(op, 2), "value types must match");
        expect_same(in(op, 1), out(op), "result type must equal the value type");
        expect_same_shape(in(op, 0), in(op, 1), "condition and values");
        if (scalar_element(out(op)) == E::f4e2m1fn) fail("select cannot operate on sub-byte type f4E2M1FN");
        return;
      case Opcode::exti:
      case Opcode::trunci:
        return check_int_resize(op);
      case Opcode::ftof:
      case Opcode::ftoi:
      case Opcode::itof:
      case Opcode::bitcast:
        return check_conversion(op);
      case Opcode::int_to_ptr:
        expect_tile(
            in(op, 0), "source", [](E e) { return e == E::i64; }, "i64");
        if (!is_pointer_tile(out(op))) fail("result must be a tile of pointers, got " + out(op).str());
        return expect_same_shape(in(op, 0), out(op), "source and result");
      case Opcode::ptr_to_int:
        if (!is_pointer_tile(in(op, 0))) fail("source must be a tile of pointers, got " + in(op, 0).str());
        expect_tile(
            out(op), "result", [](E e) { return e == E::i64; }, "i64");
        return expect_same_shape(in(op, 0), out(op), "source and result");
      case Opcode::ptr_to_ptr:
        if (!is_pointer_tile(in(op, 0))) fail("source must be a tile of pointers, got " + in(op, 0).str());
        if (!is_pointer_tile(out(op))) fail("result must be a tile of pointers, got " + out(op).str());
        return expect_same_shape(in(op, 0), out(op), "source and result");
      case Opcode::offset:
        if (!is_pointer_tile(in(op, 0))) fail("ptr must be a tile of pointers, got " + in(op, 0).str());
        expect_tile(in(op, 1), "offset", is_op_int, kInts);
        expect_same_shape(in(op, 0), in(op, 1), "ptr and offset");
        return expect_same(in(op, 0), out(op), "result type must equal the ptr type");
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
      case Opcode::constant: {
        const Attribute& v = *op.attr("value");
        if (auto p = dense_problem(v, version_)) fail(*p);
        return expect_same(v.type, out(op), "value type must equal the result type");
      }
      case Opcode::mmaf:
      case Opcode::mmai:
      case Opcode::mmaf_scaled:
        return check_mma(op);
      case Opcode::get_tile_block_id:
      case Opcode::get_num_tile_blocks:
        for (size_t i = 0; i < 3; ++i)
          expect_same(out(op, i), Type::scalar(E::i32), "results must be tile<i32>");
        return;
      case Opcode::assume:
        return check_assume(op);
      case Opcode::assert_:
        return expect_tile(
            in(op, 0), "condition", [](E e) { return e == E::i1; }, "i1");
      case Opcode::print_tko:
        return check_print(op);
      case Opcode::make_token:
        return expect_token(out(op), "result");
      case Opcode::join_tokens:
        if (group(op, 0).size() < 2)
          fail("expects two or more tokens, got " + std::to_string(group(op, 0).size()));
        for (const Value* v : group(op, 0)) expect_token(v->type(), "operand");
        return expect_token(out(op), "result");
      case Opcode::gdc_launch_dependents_tko:
      case Opcode::gdc_wait_tko:
      case Opcode::memory_fence_alias_tko:
        if (auto t = optional_in(op, 0)) expect_token(*t, "token operand");
        return expect_token(out(op), "result");
      case Opcode::get_global:
        return check_get_global(op);
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
        return check_view_access(op);
      case Opcode::load_ptr_tko:
      case Opcode::store_ptr_tko:
        return check_ptr_access(op);
      case Opcode::atomic_rmw_tko:
      case Opcode::atomic_cas_tko:
        return check_atomic(op);
      case Opcode::atomic_red_view_tko:
        return check_atomic_red_view(op);
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
        return check_return(op);
      case Opcode::entry:
      case Opcode::global:
      case Opcode::module:
        return;
    }
  }

  // Rounding-mode sets, flush_to_zero and approx/full: only f32 may use the fast modifiers.
  void check_float_modifiers(const Operation& op) {
    const bool f32 = scalar_element(out(op)) == E::f32;
    const std::string elem = out(op).element().str();
    if (op.has_attr("flush_to_zero") && !f32) fail("flush_to_zero is only supported for f32, got " + elem);
    if (!op.spec().find_attr("rounding_mode")) return;
    const RoundingMode r = rounding(op);
    using R = RoundingMode;
    std::vector<R> allowed = {R::nearest_even, R::zero, R::negative_inf, R::positive_inf};
    switch (op.opcode()) {
      case Opcode::divf:
        allowed.insert(allowed.end(), {R::approx, R::full});
        break;
      case Opcode::sqrt:
        allowed.push_back(R::approx);
        break;
      case Opcode::exp:
      case Opcode::tanh:
        allowed = {R::full, R::approx};
        break;
      default:
        break;
    }
    if (std::find(allowed.begin(), allowed.end(), r) == allowed.end()) {
      std::string names;
      for (R a : allowed)
        names += (names.empty() ? "" : ", ") + keyword(EnumKind::rounding, static_cast<int64_t>(a));
      fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
           "' is not allowed; expected one of " + names);
    }
    // `full` is the default (precise) mode of exp/tanh, but a fast mode of divf.
    const bool fast = r == R::approx || (r == R::full && op.opcode() == Opcode::divf);
    if (fast && !f32)
      fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
           "' is only supported for f32, got " + elem);
  }

  void check_divi(const Operation& op) {
    const RoundingMode r = rounding(op, "rounding");
    if (r != RoundingMode::zero && r != RoundingMode::negative_inf && r != RoundingMode::positive_inf)
      fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
           "' is not allowed; expected one of zero, negative_inf, positive_inf");
    if (r == RoundingMode::negative_inf &&
        op.enum_attr_or_default("signedness") == static_cast<int64_t>(Signedness::unsigned_))
      fail("rounding mode 'negative_inf' is not allowed with unsigned division");
  }

  void check_int_resize(const Operation& op) {
    const bool ext = op.opcode() == Opcode::exti;
    const std::string ints = "i1/i4/i8/i16/i32/i64";
    expect_tile(in(op, 0), "source", is_integer, ints);
    expect_tile(out(op), "result", is_integer, ints);
    expect_same_shape(in(op, 0), out(op), "source and result");
    const int from = element_bits(*scalar_element(in(op, 0)));
    const int to = element_bits(*scalar_element(out(op)));
    if (ext && to <= from) fail("exti must widen: " + in(op, 0).str() + " -> " + out(op).str());
    if (!ext && to >= from) fail("trunci must narrow: " + in(op, 0).str() + " -> " + out(op).str());
  }

  void check_conversion(const Operation& op) {
    const Type& from = in(op, 0);
    const Type& to = out(op);
    const std::string floats = "float type";
    switch (op.opcode()) {
      case Opcode::ftof: {
        expect_tile(from, "source", is_float, floats);
        expect_tile(to, "result", is_float, floats);
        if (from == to) fail("ftof must change the type, got " + from.str() + " -> " + to.str());
        const RoundingMode r = rounding(op);
        using R = RoundingMode;
        if (*scalar_element(to) == E::f8e8m0fnu) {
          if (r != R::zero && r != R::positive_inf)
            fail("conversion to f8E8M0FNU needs rounding mode zero or positive_inf, got " +
                 keyword(EnumKind::rounding, static_cast<int64_t>(r)));
        } else if (r != R::nearest_even &&
                   !(version_ >= v13_4 && (r == R::zero || r == R::negative_inf || r == R::positive_inf ||
                                           r == R::nearest_away))) {
          fail("ftof supports only rounding mode nearest_even at bytecode " + version_.str() + ", got " +
               keyword(EnumKind::rounding, static_cast<int64_t>(r)));
        }
        break;
      }
      case Opcode::ftoi:
        expect_tile(from, "source", is_float, floats);
        expect_tile(to, "result", is_op_int, kInts);
        if (rounding(op) != RoundingMode::nearest_int_to_zero)
          fail("ftoi supports only rounding mode nearest_int_to_zero, got " +
               keyword(EnumKind::rounding, static_cast<int64_t>(rounding(op))));
        break;
      case Opcode::itof:
        expect_tile(from, "source", is_op_int, kInts);
        expect_tile(to, "result", is_float, floats);
        if (*scalar_element(to) == E::f8e8m0fnu)
          fail("itof cannot convert to f8E8M0FNU; convert to another float first");
        if (rounding(op) != RoundingMode::nearest_even)
          fail("itof supports only rounding mode nearest_even, got " +
               keyword(EnumKind::rounding, static_cast<int64_t>(rounding(op))));
        break;
      default: {  // bitcast
        expect_tile(from, "source", is_number, "number type");
        expect_tile(to, "result", is_number, "number type");
        const int a = element_bits(*scalar_element(from));
        const int b = element_bits(*scalar_element(to));
        if (a != b)
          fail("bitcast needs equal element widths: " + from.str() + " (" + std::to_string(a) + " bits) -> " +
               to.str() + " (" + std::to_string(b) + " bits)");
      }
    }
    expect_same_shape(from, to, "source and result");
  }

  void check_shape_op(const Operation& op) {
    const Type& src = in(op, 0);
    const Type& res = out(op);
    if (!src.is(TypeKind::tile)) fail("source must be a tile, got " + src.str());
    if (!res.is(TypeKind::tile)) fail("result must be a tile, got " + res.str());
    if (src.element() != res.element())
      fail("source and result element types must match: " + src.str() + " vs " + res.str());
    switch (op.opcode()) {
      case Opcode::reshape:
        if (src.num_elements() != res.num_elements())
          fail("reshape must keep the element count: " + src.str() + " -> " + res.str());
        return;
      case Opcode::broadcast:
        if (src.rank() != res.rank()) fail("broadcast must keep the rank: " + src.str() + " -> " + res.str());
        for (size_t i = 0; i < src.shape().size(); ++i)
          if (src.shape()[i] != 1 && src.shape()[i] != res.shape()[i])
            fail("broadcast source dimension " + std::to_string(i) +
                 " must be 1 or equal the result's: " + src.str() + " -> " + res.str());
        return;
      case Opcode::permute: {
        const std::vector<int64_t>& p = op.attr("permutation")->ints;
        const size_t rank = src.shape().size();
        if (rank < 2) fail("permute needs rank >= 2, got " + src.str());
        std::vector<bool> used(rank, false);
        if (p.size() != rank)
          fail("permutation " + shape_text(p) + " must have one entry per source dimension (" +
               std::to_string(rank) + ")");
        for (int64_t d : p) {
          if (d < 0 || static_cast<size_t>(d) >= rank || used[static_cast<size_t>(d)])
            fail("permutation " + shape_text(p) + " is not a permutation of [0, " + std::to_string(rank) +
                 ")");
          used[static_cast<size_t>(d)] = true;
        }
        for (size_t i = 0; i < rank; ++i)
          if (res.rank() != static_cast<int64_t>(rank) ||
              res.shape()[i] != src.shape()[static_cast<size_t>(p[i])])
            fail("result " + res.str() + " does not match " + src.str() + " permuted by " + shape_text(p));
        return;
      }
      case Opcode::cat: {
        const Type& rhs = in(op, 1);
        if (!rhs.is(TypeKind::tile) || rhs.element() != src.element())
          fail("cat operands must be tiles of one element type: " + src.str() + " vs " + rhs.str());
        if (src.rank() != rhs.rank() || src.rank() != res.rank())
          fail("cat operands and result must have one rank: " + src.str() + ", " + rhs.str() + " -> " +
               res.str());
        const int64_t dim = op.attr("dim")->int_value;
        if (dim < 0 || dim >= src.rank())
          fail("cat dim " + std::to_string(dim) + " must be in [0, " + std::to_string(src.rank()) + ")");
        for (int64_t i = 0; i < src.rank(); ++i) {
          const size_t k = static_cast<size_t>(i);
          const int64_t want = i == dim ? src.shape()[k] + rhs.shape()[k] : src.shape()[k];
          if ((i != dim && rhs.shape()[k] != src.shape()[k]) || res.shape()[k] != want)
            fail("cat of " + src.str() + " and " + rhs.str() + " along dim " + std::to_string(dim) +
                 " cannot give " + res.str());
        }
        return;
      }
      default: {  // extract (source -> part), insert (part into destination)
        const bool insert = op.opcode() == Opcode::insert;
        const Type& whole = insert ? in(op, 1) : src;
        const Type& part = insert ? src : res;
        if (insert) expect_same(whole, res, "result type must equal the destination type");
        if (whole.rank() != part.rank())
          fail("source and result must have the same rank: " + whole.str() + " vs " + part.str());
        for (size_t i = 0; i < whole.shape().size(); ++i)
          if (part.shape()[i] <= 0 || whole.shape()[i] % part.shape()[i] != 0)
            fail("dimension " + std::to_string(i) + " of " + whole.str() + " must be a multiple of that of " +
                 part.str());
        const auto& idx = group(op, insert ? 2 : 1);
        if (static_cast<int64_t>(idx.size()) != whole.rank())
          fail("expected " + std::to_string(whole.rank()) + " indices, got " + std::to_string(idx.size()));
        for (size_t i = 0; i < idx.size(); ++i)
          if (idx[i]->type() != Type::scalar(E::i32))
            fail("index " + std::to_string(i) + " must be tile<i32>, got " + idx[i]->type().str());
      }
    }
  }

  void check_iota(const Operation& op) {
    const Type& t = out(op);
    expect_tile(t, "result", is_op_int, kInts);
    if (t.rank() != 1) fail("iota result must be a 1-d tile, got " + t.str());
    const int bits = element_bits(*scalar_element(t));
    if (bits < 63 && t.shape()[0] > (int64_t{1} << bits))
      fail("iota length " + std::to_string(t.shape()[0]) + " exceeds the range of " + t.element().str());
  }

  void check_pack(const Operation& op) {
    const bool pack = op.opcode() == Opcode::pack;
    const Type& src = in(op, 0);
    const Type& res = out(op);
    const Type& bytes = pack ? res : src;
    const Type& other = pack ? src : res;
    expect_tile(
        bytes, pack ? "result" : "source", [](E e) { return e == E::i8; }, "i8");
    if (!tile_of(other, [](E) { return true; }))
      fail("operand must be a tile of numbers, got " + other.str());
    if (src.rank() != 1 || res.rank() != 1)
      fail("source and result must be rank-1 tiles: " + src.str() + " -> " + res.str());
    auto width = [](E e) { return e == E::tf32 ? 32 : element_bits(e); };
    const int64_t a = width(*scalar_element(src)) * src.num_elements();
    const int64_t b = width(*scalar_element(res)) * res.num_elements();
    if (element_bits(*scalar_element(src)) == element_bits(*scalar_element(res)))
      fail("source and result must have different element widths: " + src.str() + " -> " + res.str());
    if (a % 8 != 0 || a != b)
      fail("source and result must have the same byte size: " + src.str() + " -> " + res.str());
  }

  void check_mma(const Operation& op) {
    const Type& a = in(op, 0);
    const Type& b = in(op, 1);
    const Type& c = in(op, 2);
    for (const Type* t : {&a, &b, &c})
      if (!tile_of(*t, [](E) { return true; })) fail("operands must be tiles of numbers, got " + t->str());
    expect_same(c, out(op), "result type must equal the accumulator type");
    const E ea = *scalar_element(a);
    const E ec = *scalar_element(c);
    if (op.opcode() == Opcode::mmai) {
      expect_tile(
          a, "lhs", [](E e) { return e == E::i8; }, "i8");
      expect_tile(
          b, "rhs", [](E e) { return e == E::i8; }, "i8");
      expect_tile(
          c, "acc", [](E e) { return e == E::i32; }, "i32");
    } else if (op.opcode() == Opcode::mmaf) {
      if (ea != *scalar_element(b))
        fail("lhs and rhs element types must match: " + a.str() + " vs " + b.str());
      std::vector<E> acc;
      switch (ea) {
        case E::f16:
        case E::f8e4m3fn:
        case E::f8e5m2:
          acc = {E::f16, E::f32};
          break;
        case E::bf16:
        case E::tf32:
        case E::f32:
          acc = {E::f32};
          break;
        case E::f64:
          acc = {E::f64};
          break;
        default:
          fail("unsupported mmaf input element type " + name(ea) +
               " (expected f16, bf16, tf32, f32, f64, f8E4M3FN or f8E5M2)");
      }
      if (std::find(acc.begin(), acc.end(), ec) == acc.end()) {
        std::string names;
        for (E e : acc) names += (names.empty() ? "" : "/") + name(e);
        fail("mmaf with " + name(ea) + " inputs needs a " + names + " accumulator, got " + c.str());
      }
    } else {
      auto low = [](E e) { return e == E::f8e4m3fn || e == E::f8e5m2 || e == E::f4e2m1fn; };
      expect_tile(a, "lhs", low, "f8E4M3FN/f8E5M2/f4E2M1FN");
      expect_tile(b, "rhs", low, "f8E4M3FN/f8E5M2/f4E2M1FN");
      expect_tile(
          c, "acc", [](E e) { return e == E::f32; }, "f32");
      for (size_t g : {3, 4})
        expect_tile(
            in(op, g), g == 3 ? "lhs_scale" : "rhs_scale",
            [](E e) { return e == E::f8e4m3fn || e == E::f8e8m0fnu; }, "f8E4M3FN/f8E8M0FNU");
    }
    // Shapes: [B x] M x K, [B x] K x N, [B x] M x N.
    if (a.rank() != 2 && a.rank() != 3)
      fail("mma operands must be 2-D or 3-D (batched) tiles, got " + a.str());
    if (b.rank() != a.rank() || c.rank() != a.rank())
      fail("mma operands must have one rank: " + a.str() + ", " + b.str() + ", " + c.str());
    const size_t o = a.rank() == 3 ? 1 : 0;
    const auto& sa = a.shape();
    const auto& sb = b.shape();
    const auto& sc = c.shape();
    if (o == 1 && (sa[0] != sb[0] || sa[0] != sc[0]))
      fail("mma batch dimensions must match: " + a.str() + ", " + b.str() + ", " + c.str());
    if (sa[o + 1] != sb[o] || sa[o] != sc[o] || sb[o + 1] != sc[o + 1])
      fail("mma shapes must be MxK, KxN, MxN: " + a.str() + ", " + b.str() + ", " + c.str());
  }

  void check_assume(const Operation& op) {
    const Type& t = in(op, 0);
    expect_same(t, out(op), "result type must equal the value type");
    const Attribute& p = *op.attr("predicate");
    const std::optional<E> e = scalar_element(t);
    const bool int_or_ptr = (e && is_op_int(*e)) || is_pointer_tile(t);
    switch (p.kind) {
      case AttrKind::div_by:
        if (!is_pow2(p.int_value) || p.int_value > (int64_t{1} << 62))
          fail("div_by divisor must be a power of two <= 2^62, got " + std::to_string(p.int_value));
        if (p.every.has_value() != p.along.has_value())
          fail("div_by 'every' and 'along' must be given together");
        if (t.is(TypeKind::tensor_view)) {
          if (p.every) fail("div_by 'every'/'along' cannot be used on a tensor_view");
          return;
        }
        if (!int_or_ptr)
          fail("div_by applies to tiles of integers or pointers and tensor_views, got " + t.str());
        if (p.every) {
          if (t.rank() == 0) fail("div_by 'every'/'along' cannot be used on a rank-0 tile");
          if (*p.along < 0 || *p.along >= t.rank())
            fail("div_by 'along' " + std::to_string(*p.along) + " must be in [0, " +
                 std::to_string(t.rank()) + ")");
          if (*p.every < 0 || *p.every > t.shape()[static_cast<size_t>(*p.along)])
            fail("div_by 'every' " + std::to_string(*p.every) + " must be within the size of dimension " +
                 std::to_string(*p.along));
        }
        return;
      case AttrKind::same_elements:
        if (!int_or_ptr) fail("same_elements applies to tiles of integers or pointers, got " + t.str());
        if (static_cast<int64_t>(p.ints.size()) != t.rank())
          fail("same_elements needs one value per dimension (" + std::to_string(t.rank()) + "), got " +
               shape_text(p.ints));
        for (size_t i = 0; i < p.ints.size(); ++i)
          if (p.ints[i] < 0 || p.ints[i] > t.shape()[i])
            fail("same_elements value " + std::to_string(i) + " must be within [0, " +
                 std::to_string(t.shape()[i]) + "]");
        return;
      default: {  // bounded
        if (!e || !is_op_int(*e)) fail("bounded applies to tiles of integers, got " + t.str());
        const int bits = element_bits(*e);
        const int64_t lo = bits >= 64 ? INT64_MIN : bits == 1 ? -1 : -(int64_t{1} << (bits - 1));
        const int64_t hi = bits >= 64 ? INT64_MAX : bits == 1 ? 0 : (int64_t{1} << (bits - 1)) - 1;
        for (const auto& [bound, label] : {std::pair{p.lower, "lower"}, std::pair{p.upper, "upper"}})
          if (bound && (*bound < lo || *bound > hi))
            fail(std::string("bounded ") + label + " bound " + std::to_string(*bound) +
                 " is outside the range of " + name(*e));
        if (p.lower && p.upper && *p.lower > *p.upper)
          fail("bounded lower bound " + std::to_string(*p.lower) + " exceeds upper bound " +
               std::to_string(*p.upper));
      }
    }
  }

  void check_print(const Operation& op) {
    const std::string& fmt = op.attr("str")->str;
    size_t expected = 0;
    for (size_t pos = 0; pos < fmt.size(); ++pos) {
      if (fmt[pos] != '%') continue;
      size_t end = pos + 1;
      while (end < fmt.size() &&
             std::string_view("diuoxXeEfFgGaAcsSpn%").find(fmt[end]) == std::string_view::npos)
        ++end;
      if (end == fmt.size())
        fail("format string has an unterminated conversion at offset " + std::to_string(pos));
      if (end == pos + 1 && fmt[end] == '%') {
        ++pos;
        continue;
      }
      ++expected;
    }
    const auto& args = group(op, 0);
    if (args.size() != expected)
      fail("format string has " + std::to_string(expected) + " conversions but " +
           std::to_string(args.size()) + " arguments");
    for (const Value* v : args)
      if (!v->type().is(TypeKind::tile)) fail("print arguments must be tiles, got " + v->type().str());
    if (auto t = optional_in(op, 1)) expect_token(*t, "token operand");
    expect_token(out(op), "result");
  }

  void check_get_global(const Operation& op) {
    const std::string& sym = op.attr("name")->str;
    const Global* g = nullptr;
    for (const Global& candidate : module_.globals())
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
           " dynamic stride operands (one per '?' in " + tv.str() + "), got " +
           std::to_string(strides.size()));
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

  /// Ordering/scope rules of non-atomic loads and stores.
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

  /// Indices of a view access: one scalar int per tile dimension (gather views: a 1-D tile at sparse_dim).
  void check_view_indices(const Type& view, const std::vector<Value*>& idx) {
    const size_t rank = view.tile_shape().size();
    if (idx.size() != rank)
      fail("expected " + std::to_string(rank) + " index operands (the tile rank of " + view.str() +
           "), got " + std::to_string(idx.size()));
    std::optional<Type> common;
    for (size_t i = 0; i < idx.size(); ++i) {
      const Type& t = idx[i]->type();
      if (view.is(TypeKind::gather_scatter_view) && static_cast<int32_t>(i) == view.sparse_dim()) {
        const int64_t want = view.tile_shape()[i];
        if (!tile_of(t, is_op_int) || t.rank() != 1 || t.shape()[0] != want)
          fail("index " + std::to_string(i) +
               " (the sparse dimension) must be a 1-D integer tile of length " + std::to_string(want) +
               ", got " + t.str());
        continue;
      }
      if (!is_scalar_int(t))
        fail("index " + std::to_string(i) + " must be a scalar integer tile, got " + t.str());
      if (!common) common = t;
      if (t != *common) fail("indices must share one type: " + common->str() + " vs " + t.str());
    }
  }

  void check_view_access(const Operation& op) {
    const bool load = op.opcode() == Opcode::load_view_tko;
    const size_t view_group = load ? 0 : 1;
    const Type& view = in(op, view_group);
    if (!is_view(view))
      fail("view operand must be a partition, strided or gather/scatter view, got " + view.str());
    const auto& idx = group(op, view_group + 1);
    check_view_indices(view, idx);
    const Type& tile = load ? out(op, 0) : in(op, 0);
    expect_same(tile, view.view_tile_type(),
                std::string(load ? "loaded" : "stored") + " tile type must be the view's tile type");
    expect_token(out(op, load ? 1 : 0), "result token");
    if (auto t = optional_in(op, view_group + 2)) expect_token(*t, "token operand");
    check_memory_model(op, load);
    if (const Attribute* h = op.attr("optimization_hints"))
      check_hints(*h, {"latency", "allow_tma"}, version_);
    if (const Attribute* ib = op.attr("inbounds"); ib && version_ >= v13_4 && ib->bools.size() != idx.size())
      fail("inbounds must have one entry per index (" + std::to_string(idx.size()) + "), got " +
           std::to_string(ib->bools.size()));
  }

  void check_ptr_access(const Operation& op) {
    const bool load = op.opcode() == Opcode::load_ptr_tko;
    const Type& ptrs = in(op, 0);
    if (!is_pointer_tile(ptrs)) fail("pointer operand must be a tile of pointers, got " + ptrs.str());
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
    if (const Attribute* h = op.attr("optimization_hints")) check_hints(*h, {"latency"}, version_);
  }

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

  // -- control flow
  static void expect_no_views(const std::vector<Type>& types, const std::string& what) {
    for (size_t i = 0; i < types.size(); ++i)
      if (types[i].is(TypeKind::tensor_view) || is_view(types[i]))
        fail(what + " " + std::to_string(i) + " cannot be a view: " + types[i].str());
  }
  static const Block& single_block(const Operation& op, size_t region) {
    if (op.region(region).num_blocks() != 1)
      fail("region " + std::to_string(region) + " must have exactly one block, got " +
           std::to_string(op.region(region).num_blocks()));
    return op.region(region).block(0);
  }

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

  static void check_iter_values(const Operation&, const std::vector<Type>& init,
                                const std::vector<Type>& args) {
    if (init.size() != args.size())
      fail("the body has " + std::to_string(args.size()) + " iteration arguments but " +
           std::to_string(init.size()) + " init values were given");
    expect_no_views(init, "loop-carried value");
    if (init != args)
      fail("iteration argument types " + list(args) + " must equal the init types " + list(init));
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
        fail("identity " + std::to_string(i) + " has type " + name(ide) + " but operand " +
             std::to_string(i) + " is " + t.str());
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

  /// The op owning the block `op` sits in; nullptr for the kernel body.
  static const Operation* parent_of(const Operation& op) {
    const Block* b = op.parent_block();
    return b && b->parent_region() ? b->parent_region()->parent_op() : nullptr;
  }

  /// Walks out through enclosing `if`s; the first other ancestor (nullptr: the kernel body).
  static const Operation* ancestor_past_ifs(const Operation& op) {
    const Operation* p = parent_of(op);
    while (p && p->opcode() == Opcode::if_) p = parent_of(*p);
    return p;
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
        fail("yielded value " + std::to_string(i) +
             " must be a rank-0 tile of the operand element type, got " + got[i].str());
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

  void check_return(const Operation& op) {
    // 13.4 lets `return` leave a `loop` too; 13.3 only an `if` nested in the kernel body.
    const Operation* p = parent_of(op);
    while (p && (p->opcode() == Opcode::if_ || (version_ >= v13_4 && p->opcode() == Opcode::loop)))
      p = parent_of(*p);
    if (p != nullptr)
      fail(version_ >= v13_4 ? "return must be in the kernel body (possibly through nested 'if's and 'loop's)"
                             : "return must be in the kernel body (possibly through nested 'if's)");
    if (op.num_operands() != 0)
      fail("a kernel returns no values, got " + std::to_string(op.num_operands()) + " operands");
  }

  const Module& module_;
  Version version_;
  const Function* fn_ = nullptr;
  std::vector<Diagnostic> out_;
  std::unordered_set<const Value*> visible_;
  std::vector<const Value*> defined_;
};

}  // namespace

std::string Diagnostic::str() const {
  std::string out = kernel.empty() ? "in module" : "in kernel '" + kernel + "'";
  if (!kernel.empty()) out += " at " + location.str();
  out += ": ";
  if (!op.empty()) out += op + ": ";
  return out + message;
}

std::vector<Diagnostic> check_module(const Module& module, Version version) {
  if (version < kOldestVersion || version > kNewestVersion)
    throw UserError("unsupported bytecode version " + version.str() + " (expected 13.1 .. 13.4)");
  return Verifier(module, version).run();
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
