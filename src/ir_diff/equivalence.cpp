#include "cutile/ir_diff/equivalence.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace cutile::ir {
namespace {

/// Canonical form of an attribute: the spellings bytecode does not distinguish are made equal.
Attribute canonical(const Attribute& a) {
  Attribute c = a;
  switch (a.kind) {
    case AttrKind::integer:
      if (a.type.is(TypeKind::element) && a.type.element_type() == ElementType::i1) return Attribute::boolean(a.int_value & 1);
      if (a.type.is(TypeKind::element)) {
        const int bits = element_bits(a.type.element_type());
        if (bits < 64) {
          const uint64_t u = static_cast<uint64_t>(a.int_value) & ((uint64_t{1} << bits) - 1);
          c.int_value = (u >> (bits - 1)) ? static_cast<int64_t>(u | (~uint64_t{0} << bits)) : static_cast<int64_t>(u);
        }
      }
      return c;
    case AttrKind::boolean: c.int_value = a.int_value ? 1 : 0; return c;
    case AttrKind::dense_elements:
      if (a.type.is(TypeKind::tile) && a.type.element().is(TypeKind::element) &&
          a.type.element().element_type() == ElementType::i1 && a.raw.size() == 1 && a.type.num_elements() > 1 &&
          a.raw[0] == 0x01)
        c.raw[0] = 0xFF;
      return c;
    case AttrKind::array:
      for (Attribute& e : c.elements) e = canonical(e);
      return c;
    case AttrKind::dictionary:
    case AttrKind::optimization_hints:
      for (auto& [k, v] : c.entries) v = canonical(v);
      return c;
    default: return c;
  }
}

std::string describe(const Attribute& a) {
  switch (a.kind) {
    case AttrKind::integer:
    case AttrKind::boolean:
    case AttrKind::enum_value: return std::to_string(a.int_value);
    case AttrKind::string: return "\"" + a.str + "\"";
    case AttrKind::unit: return "unit";
    default: return "(attribute of kind " + std::to_string(static_cast<int>(a.kind)) + ")";
  }
}

/// The attribute as bytecode sees it: absent defaults filled in, all-false inbounds removed.
std::optional<Attribute> effective_attr(const Operation& op, const AttrSpec& spec) {
  const Attribute* a = op.attr(spec.name);
  if (spec.encoding == AttrEncoding::bool_array) {
    if (!a || std::none_of(a->bools.begin(), a->bools.end(), [](bool b) { return b; })) return std::nullopt;
    return *a;
  }
  if (!a) {
    if (spec.has_default && spec.encoding == AttrEncoding::enum_value) return Attribute::enum_attr(spec.enum_kind, spec.default_value);
    return std::nullopt;
  }
  if (spec.encoding == AttrEncoding::integer) {
    Attribute c = *a;
    c.type = Type();  // I32Attr vs I64Attr is not encoded
    return c;
  }
  return canonical(*a);
}

class Comparer {
 public:
  explicit Comparer(std::string* out) : out_(out) {}

  bool modules(const Module& a, const Module& b) {
    if (a.producer() != b.producer())
      return fail("producer differs: " + a.producer().value_or("<none>") + " vs " + b.producer().value_or("<none>"));
    if (a.globals().size() != b.globals().size())
      return fail("global count differs: " + std::to_string(a.globals().size()) + " vs " + std::to_string(b.globals().size()));
    for (size_t i = 0; i < a.globals().size(); ++i) {
      const Global& x = a.globals()[i];
      const Global& y = b.globals()[i];
      const std::string where = "global #" + std::to_string(i) + " '" + x.name + "'";
      if (x.name != y.name) return fail(where + ": name differs from '" + y.name + "'");
      if (canonical(x.value) != canonical(y.value)) return fail(where + ": value differs");
      if (x.alignment != y.alignment || x.is_private != y.is_private || x.is_constant != y.is_constant)
        return fail(where + ": alignment, visibility or constness differs");
    }
    if (a.functions().size() != b.functions().size())
      return fail("function count differs: " + std::to_string(a.functions().size()) + " vs " +
                  std::to_string(b.functions().size()));
    for (size_t i = 0; i < a.functions().size(); ++i)
      if (!function(*a.functions()[i], *b.functions()[i])) return false;
    return true;
  }

 private:
  bool fail(const std::string& what) {
    if (out_) *out_ = what;
    return false;
  }

  bool function(const Function& a, const Function& b) {
    where_ = "function '" + a.name() + "'";
    if (a.name() != b.name()) return fail(where_ + ": name differs from '" + b.name() + "'");
    if (a.signature() != b.signature())
      return fail(where_ + ": signature " + a.signature().str() + " vs " + b.signature().str());
    if (a.location() != b.location())
      return fail(where_ + ": location " + a.location().str() + " vs " + b.location().str());
    auto hints = [](const Function& f) -> std::optional<Attribute> {
      if (!f.hints() || f.hints()->entries.empty()) return std::nullopt;
      return canonical(*f.hints());
    };
    if (hints(a) != hints(b)) return fail(where_ + ": optimization hints differ");
    map_.clear();
    op_index_ = 0;
    return region(a.body(), b.body());
  }

  bool region(const Region& a, const Region& b) {
    if (a.num_blocks() != b.num_blocks())
      return fail(where_ + ", op #" + std::to_string(op_index_) + ": region has " + std::to_string(a.num_blocks()) +
                  " blocks vs " + std::to_string(b.num_blocks()));
    for (size_t i = 0; i < a.num_blocks(); ++i) {
      const Block& x = a.block(i);
      const Block& y = b.block(i);
      if (x.num_arguments() != y.num_arguments())
        return fail(where_ + ": block has " + std::to_string(x.num_arguments()) + " arguments vs " +
                    std::to_string(y.num_arguments()));
      for (size_t j = 0; j < x.num_arguments(); ++j) {
        if (x.argument(j)->type() != y.argument(j)->type())
          return fail(where_ + ": block argument " + std::to_string(j) + " type " + x.argument(j)->type().str() +
                      " vs " + y.argument(j)->type().str());
        map_[x.argument(j)] = y.argument(j);
      }
      if (x.operations().size() != y.operations().size())
        return fail(where_ + ", after op #" + std::to_string(op_index_) + ": block has " +
                    std::to_string(x.operations().size()) + " ops vs " + std::to_string(y.operations().size()));
      for (size_t j = 0; j < x.operations().size(); ++j)
        if (!operation(*x.operations()[j], *y.operations()[j])) return false;
    }
    return true;
  }

  bool operation(const Operation& a, const Operation& b) {
    const std::string at = where_ + ", op #" + std::to_string(op_index_++) + " (" + std::string(a.spec().mnemonic) + ")";
    if (a.opcode() != b.opcode()) return fail(at + ": opcode differs from " + std::string(b.spec().mnemonic));
    if (a.location() != b.location()) return fail(at + ": location " + a.location().str() + " vs " + b.location().str());
    if (a.num_results() != b.num_results())
      return fail(at + ": " + std::to_string(a.num_results()) + " results vs " + std::to_string(b.num_results()));
    for (size_t i = 0; i < a.num_results(); ++i)
      if (a.result(i)->type() != b.result(i)->type())
        return fail(at + ": result " + std::to_string(i) + " type " + a.result(i)->type().str() + " vs " +
                    b.result(i)->type().str());
    for (const AttrSpec& spec : a.spec().attrs) {
      const std::optional<Attribute> x = effective_attr(a, spec);
      const std::optional<Attribute> y = effective_attr(b, spec);
      if (x != y)
        return fail(at + ": attribute '" + std::string(spec.name) + "' " + (x ? describe(*x) : "absent") + " vs " +
                    (y ? describe(*y) : "absent"));
    }
    for (const auto* op : {&a, &b})
      for (const NamedAttribute& n : op->attrs())
        if (!a.spec().find_attr(n.name)) return fail(at + ": attribute '" + n.name + "' is not defined by the op");
    const auto& ga = a.operand_groups();
    const auto& gb = b.operand_groups();
    if (ga.size() != gb.size()) return fail(at + ": operand group count differs");
    for (size_t g = 0; g < ga.size(); ++g) {
      if (ga[g].size() != gb[g].size())
        return fail(at + ": operand group " + std::to_string(g) + " has " + std::to_string(ga[g].size()) +
                    " values vs " + std::to_string(gb[g].size()));
      for (size_t i = 0; i < ga[g].size(); ++i) {
        auto it = map_.find(ga[g][i]);
        if (it == map_.end() || it->second != gb[g][i])
          return fail(at + ": operand " + std::to_string(i) + " of group " + std::to_string(g) +
                      " refers to a different value");
      }
    }
    if (a.num_regions() != b.num_regions()) return fail(at + ": region count differs");
    for (size_t r = 0; r < a.num_regions(); ++r)
      if (!region(a.region(r), b.region(r))) return false;
    for (size_t i = 0; i < a.num_results(); ++i) map_[a.result(i)] = b.result(i);
    return true;
  }

  std::string* out_;
  std::string where_;
  size_t op_index_ = 0;
  std::unordered_map<const Value*, const Value*> map_;
};

}  // namespace

bool modules_equivalent(const Module& a, const Module& b, std::string* first_difference) {
  return Comparer(first_difference).modules(a, b);
}

}  // namespace cutile::ir
