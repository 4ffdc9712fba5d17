// The printer follows the op formats of the cuda_tile dialect (declarative assembly formats and the
// hand-written printers of the official dialect) including their spacing quirks: a custom directive
// that prints nothing still leaves its leading space (`addf %a, %b  : tile<f32>`), as tileirdisasm does.
// SSA names reproduce MLIR's naming: ops that suggest names get them (uniqued with a shared `_N`
// conflict counter), other results are numbered, and nested regions are named after their parent
// region, last region first, each starting from the counters its parent ended with.
#include "cutile/ir/printer.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"

namespace cutile::ir {
namespace {

// ---------------------------------------------------------------------------------------------
// Scalars: MLIR's float and string spelling.

// Significant bits of a float format (APFloat "precision", implicit bit included).
int float_precision(ElementType e) {
  switch (e) {
    case ElementType::f16:
      return 11;
    case ElementType::bf16:
      return 8;
    case ElementType::f32:
      return 24;
    case ElementType::tf32:
      return 11;
    case ElementType::f64:
      return 53;
    case ElementType::f8e4m3fn:
      return 4;
    case ElementType::f8e5m2:
      return 3;
    case ElementType::f8e5m3fnu:
      return 4;
    case ElementType::f4e2m1fn:
      return 2;
    case ElementType::f8e8m0fnu:
      return 1;
    default:
      throw InternalError("not a float element type: " + std::string(element_type_name(e)));
  }
}

bool round_trips(ElementType e, const std::string& text, uint64_t bits) {
  const double parsed = std::strtod(text.c_str(), nullptr);
  return float_to_bits(e, parsed) == bits;
}

std::string hex_bits(uint64_t bits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIX64, bits);
  return buf;
}

// Unsigned big integer, little-endian 32-bit limbs: just enough to expand N * 5^k exactly.
struct BigUint {
  std::vector<uint32_t> limbs;
  explicit BigUint(uint64_t v) {
    while (v) {
      limbs.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
  }
  bool zero() const { return limbs.empty(); }
  void mul_small(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t& l : limbs) {
      const uint64_t p = uint64_t{l} * m + carry;
      l = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) limbs.push_back(static_cast<uint32_t>(carry));
  }
  uint32_t div_small(uint32_t d) {  // returns the remainder
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      const uint64_t cur = rem << 32 | limbs[i];
      limbs[i] = static_cast<uint32_t>(cur / d);
      rem = cur % d;
    }
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
    return static_cast<uint32_t>(rem);
  }
  unsigned active_bits() const {
    if (limbs.empty()) return 0;
    unsigned bits = 32 * static_cast<unsigned>(limbs.size() - 1);
    for (uint32_t top = limbs.back(); top; top >>= 1) ++bits;
    return bits;
  }
};

// Decomposes a finite nonzero float into significand * 2^exp (significand includes the implicit bit).
void decompose(ElementType e, uint64_t bits, bool& negative, uint64_t& significand, int& exp2) {
  const double v = bits_to_float(e, bits);
  negative = std::signbit(v);
  int e2 = 0;
  const double frac = std::frexp(std::fabs(v), &e2);  // |v| = frac * 2^e2, frac in [0.5, 1)
  // Every format here fits a double exactly; scale the fraction to an integer of the format's width.
  const int p = float_precision(e);
  significand = static_cast<uint64_t>(std::ldexp(frac, p));
  exp2 = e2 - p;
}

// llvm::APFloat::toString for finite nonzero values: exact decimal expansion, an early truncation to
// about FormatPrecision digits, then round-half-up to FormatPrecision digits (LLVM's own algorithm,
// whose truncate-then-round can differ from correctly rounded printf output).
std::string apfloat_to_string(ElementType e, uint64_t bits, unsigned format_precision, unsigned max_padding,
                              bool truncate_zero) {
  bool negative = false;
  uint64_t n = 0;
  int exp = 0;
  decompose(e, bits, negative, n, exp);
  std::string out = negative ? "-" : "";
  if (format_precision == 0) format_precision = 2 + static_cast<unsigned>(float_precision(e)) * 59 / 196;
  while (n && !(n & 1)) {
    n >>= 1;
    ++exp;
  }
  BigUint sig(n);
  if (exp > 0) {
    for (int i = 0; i < exp; ++i) sig.mul_small(2);
    exp = 0;
  } else {
    for (int i = 0; i < -exp; ++i) sig.mul_small(5);
  }
  // AdjustToPrecision on the integer: drop (truncate) decimal digits beyond what the precision needs.
  const unsigned bits_required = (format_precision * 196 + 58) / 59;
  const unsigned active = sig.active_bits();
  if (active > bits_required) {
    const unsigned removable = (active - bits_required) * 59 / 196;
    for (unsigned i = 0; i < removable; ++i) sig.div_small(10);
    exp += static_cast<int>(removable);
  }
  // Digits, least significant first, without trailing zeros.
  std::string buffer;
  bool in_trail = true;
  while (!sig.zero()) {
    const uint32_t d = sig.div_small(10);
    if (in_trail && d == 0) {
      ++exp;
    } else {
      buffer.push_back(static_cast<char>('0' + d));
      in_trail = false;
    }
  }
  // AdjustToPrecision on the digits: round half up to format_precision digits.
  if (buffer.size() > format_precision) {
    size_t first = buffer.size() - format_precision;
    if (buffer[first - 1] < '5') {
      while (first < buffer.size() && buffer[first] == '0') ++first;
      exp += static_cast<int>(first);
      buffer.erase(0, first);
    } else {
      for (size_t i = first; i != buffer.size(); ++i) {
        if (buffer[i] == '9') {
          ++first;
        } else {
          ++buffer[i];
          break;
        }
      }
      exp += static_cast<int>(first);
      if (first == buffer.size()) {
        buffer = "1";
      } else {
        buffer.erase(0, first);
      }
    }
  }
  const int ndigits = static_cast<int>(buffer.size());
  bool scientific;
  if (max_padding == 0) {
    scientific = true;
  } else if (exp >= 0) {
    scientific = exp > static_cast<int>(max_padding) || ndigits + exp > static_cast<int>(format_precision);
  } else {
    const int msd = exp + ndigits - 1;
    scientific = msd < 0 && -msd > static_cast<int>(max_padding);
  }
  auto digit = [&](int i) { return buffer[static_cast<size_t>(ndigits - 1 - i)]; };  // most significant first
  if (scientific) {
    int e10 = exp + ndigits - 1;
    out += digit(0);
    out += '.';
    if (ndigits == 1 && truncate_zero) out += '0';
    for (int i = 1; i < ndigits; ++i) out += digit(i);
    if (!truncate_zero && static_cast<int>(format_precision) > ndigits - 1)
      out += std::string(format_precision - static_cast<unsigned>(ndigits) + 1, '0');
    out += truncate_zero ? 'E' : 'e';
    out += e10 >= 0 ? '+' : '-';
    std::string digits = std::to_string(std::abs(e10));
    if (!truncate_zero && digits.size() < 2) digits = "0" + digits;
    return out + digits;
  }
  if (exp >= 0) {
    for (int i = 0; i < ndigits; ++i) out += digit(i);
    return out + std::string(static_cast<size_t>(exp), '0');
  }
  const int whole = exp + ndigits;
  int i = 0;
  if (whole > 0) {
    for (; i < whole; ++i) out += digit(i);
    out += '.';
  } else {
    out += "0." + std::string(static_cast<size_t>(-whole), '0');
  }
  for (; i < ndigits; ++i) out += digit(i);
  return out;
}

// MLIR's float literal: APFloat's 6-digit scientific form when it reads back exactly, else APFloat's
// default form when that has a '.', else (inf, nan, large integers) the bit pattern in hex.
std::string format_float(ElementType e, uint64_t bits) {
  const double value = bits_to_float(e, bits);
  if (std::isfinite(value)) {
    if (value == 0) return std::signbit(value) ? "-0.000000e+00" : "0.000000e+00";
    std::string text = apfloat_to_string(e, bits, 6, 0, false);
    if (round_trips(e, text, bits)) return text;
    text = apfloat_to_string(e, bits, 0, 3, true);
    if (text.find('.') != std::string::npos) return text;
  }
  return hex_bits(bits);
}

// llvm::printEscapedString: printable ASCII except '"' and '\' as is, everything else as \XX.
std::string escape_string(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7F && c != '"') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "\\%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string quoted(const std::string& s) {
  return "\"" + escape_string(s) + "\"";
}

int64_t sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  v &= mask;
  if (v >> (bits - 1) & 1) v |= ~mask;
  return static_cast<int64_t>(v);
}

// ---------------------------------------------------------------------------------------------
// Dense constants.

struct DenseView {
  ElementType element;
  int64_t count;                 // elements of the tile
  bool splat;                    // one stored element, or every element equal
  std::vector<uint64_t> values;  // raw bit patterns, one per element (only [0] when splat)
};

int storage_bytes(ElementType e) {
  const int bits = element_bits(e);
  return bits <= 8 ? 1 : (bits + 7) / 8;
}

DenseView decode_dense(const Attribute& attr) {
  if (attr.kind != AttrKind::dense_elements || !attr.type.is(TypeKind::tile))
    throw InternalError("constant value is not a dense tile attribute");
  DenseView d{attr.type.element().element_type(), attr.type.num_elements(), false, {}};
  const std::vector<uint8_t>& raw = attr.raw;
  if (d.element == ElementType::i1) {
    const bool splat_byte = raw.size() == 1 && (raw[0] == 0 || raw[0] == 0xFF);
    for (int64_t i = 0; i < d.count; ++i) {
      if (splat_byte || raw.size() * 8 < static_cast<size_t>(d.count)) {
        d.values.push_back(raw.empty() ? 0 : (raw[0] & 1));
      } else {
        d.values.push_back(raw[static_cast<size_t>(i / 8)] >> (i % 8) & 1);
      }
    }
  } else {
    const int width = storage_bytes(d.element);
    const size_t stored = raw.size() / static_cast<size_t>(width);
    if (stored == 0 || raw.size() % static_cast<size_t>(width) != 0 ||
        (stored != 1 && stored != static_cast<size_t>(d.count)))
      throw InternalError("dense constant of " + attr.type.str() + " holds " + std::to_string(raw.size()) +
                          " bytes");
    for (size_t i = 0; i < stored; ++i) {
      uint64_t v = 0;
      for (int b = 0; b < width; ++b) v |= uint64_t{raw[i * width + b]} << (8 * b);
      d.values.push_back(v);
    }
  }
  d.splat = true;
  for (uint64_t v : d.values)
    if (v != d.values.front()) d.splat = false;
  if (d.splat) d.values.resize(1);
  return d;
}

std::string format_element(ElementType e, uint64_t bits) {
  if (e == ElementType::i1) return bits ? "true" : "false";
  if (is_float(e)) return format_float(e, bits);
  return std::to_string(sign_extend(bits, element_bits(e)));
}

// MLIR's dense literal body: a splat value, or nested brackets following the shape.
std::string format_dense_body(const DenseView& d, const std::vector<int64_t>& shape) {
  if (d.splat) return format_element(d.element, d.values.front());
  if (d.count > 100 && d.element != ElementType::i1) {
    // Large constants print as hex of the raw little-endian storage.
    std::string out = "\"0x";
    const int width = storage_bytes(d.element);
    for (uint64_t v : d.values)
      for (int b = 0; b < width; ++b) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02X", static_cast<unsigned>(v >> (8 * b) & 0xFF));
        out += buf;
      }
    return out + "\"";
  }
  size_t next = 0;
  std::string out;
  auto emit = [&](auto&& self, size_t dim) -> void {
    if (dim == shape.size()) {
      out += format_element(d.element, d.values.at(next++));
      return;
    }
    out += '[';
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (i) out += ", ";
      self(self, dim + 1);
    }
    out += ']';
  };
  emit(emit, 0);
  return out;
}

// `<f32: 1.000000e+00> : tile<f32>`
std::string format_dense(const Attribute& attr) {
  const DenseView d = decode_dense(attr);
  return "<" + std::string(element_type_name(d.element)) + ": " + format_dense_body(d, attr.type.shape()) +
         "> : " + attr.type.str();
}

// A typed attribute as MLIR prints it inside arrays: `0.000000e+00 : f32`, `1 : i32`, `true`.
std::string format_typed_attr(const Attribute& a) {
  switch (a.kind) {
    case AttrKind::integer: {
      const ElementType e = a.type.element_type();
      if (e == ElementType::i1) return a.int_value ? "true" : "false";
      return std::to_string(sign_extend(static_cast<uint64_t>(a.int_value), element_bits(e))) + " : " +
             a.type.str();
    }
    case AttrKind::floating:
      return format_float(a.type.element_type(), a.float_bits) + " : " + a.type.str();
    case AttrKind::boolean:
      return a.int_value ? "true" : "false";
    default:
      throw InternalError("attribute of kind " + std::to_string(int(a.kind)) + " is not a typed attribute");
  }
}

// A dictionary value without its type (optimization hints): `4`, `true`.
std::string format_untyped_attr(const Attribute& a) {
  switch (a.kind) {
    case AttrKind::integer:
      if (a.type.element_type() == ElementType::i1) return a.int_value ? "true" : "false";
      return std::to_string(a.int_value);
    case AttrKind::boolean:
      return a.int_value ? "true" : "false";
    case AttrKind::floating:
      return format_float(a.type.element_type(), a.float_bits);
    case AttrKind::string:
      return quoted(a.str);
    default:
      return format_typed_attr(a);
  }
}

// DictionaryAttr keeps its entries sorted by name; the printer shows them in that order.
std::vector<const std::pair<std::string, Attribute>*> sorted_entries(const Attribute& dict) {
  std::vector<const std::pair<std::string, Attribute>*> out;
  for (const auto& e : dict.entries) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->first < b->first; });
  return out;
}

// `<sm_90 = {num_cta_in_cga = 2, occupancy = 1}>`
std::string format_hints(const Attribute& hints) {
  std::string out = "<";
  bool first_arch = true;
  for (const auto* arch : sorted_entries(hints)) {
    if (!first_arch) out += ", ";
    first_arch = false;
    out += arch->first + " = {";
    bool first = true;
    for (const auto* hint : sorted_entries(arch->second)) {
      if (!first) out += ", ";
      first = false;
      out += hint->first + " = " + format_untyped_attr(hint->second);
    }
    out += "}";
  }
  return out + ">";
}

std::string format_predicate(const Attribute& p) {
  switch (p.kind) {
    case AttrKind::div_by: {
      std::string out = "div_by<" + std::to_string(p.int_value);
      if (p.every)
        out += ", every " + std::to_string(*p.every) + " along " + std::to_string(p.along.value_or(0));
      return out + ">";
    }
    case AttrKind::same_elements: {
      std::string out = "same_elements<[";
      for (size_t i = 0; i < p.ints.size(); ++i) out += (i ? ", " : "") + std::to_string(p.ints[i]);
      return out + "]>";
    }
    case AttrKind::bounded:
      return "bounded<" + (p.lower ? std::to_string(*p.lower) : std::string("?")) + ", " +
             (p.upper ? std::to_string(*p.upper) : std::string("?")) + ">";
    default:
      throw InternalError("assume predicate has an unexpected attribute kind");
  }
}

std::string format_int_list(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string join_types(const std::vector<Type>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i].str();
  return out;
}

std::string format_location(const Location& loc) {
  if (!loc.known()) return "loc(unknown)";
  return "loc(" + quoted(loc.file) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column) + ")";
}

// ---------------------------------------------------------------------------------------------
// SSA names.

// Names an op suggests for its results (empty = numbered), as the dialect's OpAsmOpInterface does.
std::vector<std::string> suggested_result_names(const Operation& op);

std::string constant_name(const Operation& op) {
  const Attribute* value = op.attr("value");
  if (value == nullptr) return "cst";
  const DenseView d = decode_dense(*value);
  if (d.element == ElementType::i1) {
    if (!d.splat) return "cst_i1";
    return d.values.front() ? "true" : "false";
  }
  std::string name = "cst";
  if (d.splat) {
    if (is_integer(d.element)) {
      name += "_" + std::to_string(sign_extend(d.values.front(), element_bits(d.element)));
    } else {
      const double v = bits_to_float(d.element, d.values.front());
      if (std::isnan(v)) {
        name += "_NaN";
      } else if (std::isfinite(v) && v >= 0 && !std::signbit(v) && v == std::trunc(v) &&
                 v < 18446744073709551616.0) {
        name += "_" + std::to_string(static_cast<uint64_t>(v));
      }
    }
  }
  return name + "_" + std::string(element_type_name(d.element));
}

// Ops that implement OpAsmOpInterface (an `assume` of their result is named after them).
bool names_results(Opcode op) {
  switch (op) {
    case Opcode::assume:
    case Opcode::broadcast:
    case Opcode::constant:
    case Opcode::for_:
    case Opcode::make_tensor_view:
    case Opcode::reduce:
    case Opcode::reshape:
    case Opcode::make_partition_view:
    case Opcode::make_strided_view:
    case Opcode::make_gather_scatter_view:
    case Opcode::get_tile_block_id:
    case Opcode::get_num_tile_blocks:
    case Opcode::load_view_tko:
    case Opcode::load_ptr_tko:
    case Opcode::atomic_rmw_tko:
    case Opcode::atomic_cas_tko:
    case Opcode::multimem_load_reduce_view_tko:
      return true;
    default:
      return false;
  }
}

std::vector<std::string> suggested_result_names(const Operation& op) {
  std::vector<std::string> names(op.num_results());
  if (names.empty()) return names;
  auto set_all = [&](std::initializer_list<const char*> list) {
    size_t i = 0;
    for (const char* n : list)
      if (i < names.size()) names[i++] = n;
  };
  switch (op.opcode()) {
    case Opcode::constant:
      names[0] = constant_name(op);
      break;
    case Opcode::broadcast:
      names[0] = "bcast";
      break;
    case Opcode::reshape:
      names[0] = "reshape";
      break;
    case Opcode::make_tensor_view:
      names[0] = "tview";
      break;
    case Opcode::make_partition_view:
      names[0] = "pview";
      break;
    case Opcode::make_strided_view:
      names[0] = "sview";
      break;
    case Opcode::make_gather_scatter_view:
      names[0] = "gsview";
      break;
    case Opcode::for_:
      names[0] = "for";
      break;
    case Opcode::reduce:
      names[0] = "reduce";
      break;
    case Opcode::get_tile_block_id:
      set_all({"blockId_x", "blockId_y", "blockId_z"});
      break;
    case Opcode::get_num_tile_blocks:
      set_all({"gridSize_x", "gridSize_y", "gridSize_z"});
      break;
    case Opcode::load_view_tko:
      set_all({"tile", "result_token"});
      break;
    case Opcode::multimem_load_reduce_view_tko:
      set_all({"reduced_values", "result_token"});
      break;
    case Opcode::load_ptr_tko:
    case Opcode::atomic_rmw_tko:
    case Opcode::atomic_cas_tko:
      set_all({"result", "result_token"});
      break;
    case Opcode::assume: {
      const std::vector<Value*> operands = op.operands();
      const Operation* producer = operands.empty() ? nullptr : operands[0]->defining_op();
      if (producer != nullptr && names_results(producer->opcode())) {
        names[0] = "assume_" + suggested_result_names(*producer).at(operands[0]->index());
      } else {
        names[0] = "assume";
      }
      break;
    }
    default:
      break;
  }
  return names;
}

// Names used by a region and the regions enclosing it.
struct NameScope {
  const NameScope* parent = nullptr;
  std::set<std::string> used;
  bool contains(const std::string& n) const {
    for (const NameScope* s = this; s != nullptr; s = s->parent)
      if (s->used.count(n)) return true;
    return false;
  }
};

class SsaNames {
 public:
  explicit SsaNames(const Function& f) { number_function(f); }

  // The text of a use: %name, %7, %7#1.
  std::string ref(const Value* v) const {
    if (const Operation* op = v->defining_op()) {
      const auto& groups = result_groups(op);
      size_t start = 0, size = op->num_results();
      for (size_t g = 0; g < groups.size(); ++g) {
        if (static_cast<size_t>(groups[g]) <= v->index()) {
          start = static_cast<size_t>(groups[g]);
          size = (g + 1 < groups.size() ? static_cast<size_t>(groups[g + 1]) : op->num_results()) - start;
        }
      }
      std::string base = id(op->result(start));
      return size > 1 ? base + "#" + std::to_string(v->index() - start) : base;
    }
    return id(v);
  }

  // The result list before `=`: `%a, %b`, `%4:2`, `%for:2, %x`.
  std::string definition(const Operation& op) const {
    const auto& groups = result_groups(&op);
    std::string out;
    for (size_t g = 0; g < groups.size(); ++g) {
      const size_t start = static_cast<size_t>(groups[g]);
      const size_t end = g + 1 < groups.size() ? static_cast<size_t>(groups[g + 1]) : op.num_results();
      if (g) out += ", ";
      out += id(op.result(start));
      if (end - start > 1) out += ":" + std::to_string(end - start);
    }
    return out;
  }

 private:
  struct Context {
    const Region* region;
    unsigned next_value, next_argument, next_conflict;
    const NameScope* parent;
  };

  std::string id(const Value* v) const {
    auto it = names_.find(v);
    if (it == names_.end()) throw InternalError("printer: value used outside its scope (no SSA name)");
    return "%" + it->second;
  }

  const std::vector<int>& result_groups(const Operation* op) const {
    static const std::vector<int> single = {0};
    auto it = groups_.find(op);
    return it == groups_.end() ? single : it->second;
  }

  std::string unique(const std::string& name) {
    std::string chosen = name;
    if (scope_->contains(name)) {
      do {
        chosen = name + "_" + std::to_string(next_conflict_++);
      } while (scope_->contains(chosen));
    }
    scope_->used.insert(chosen);
    return chosen;
  }

  void set_name(const Value* v, const std::string& name) {
    names_[v] = name.empty() ? std::to_string(next_value_++) : unique(name);
  }

  void number_op(const Operation& op) {
    if (op.num_results() == 0) return;
    const std::vector<std::string> suggested = suggested_result_names(op);
    std::vector<int> groups = {0};
    for (size_t i = 0; i < suggested.size(); ++i) {
      if (suggested[i].empty()) continue;
      set_name(op.result(i), suggested[i]);
      if (i) groups.push_back(static_cast<int>(i));
    }
    if (!names_.count(op.result(0))) names_[op.result(0)] = std::to_string(next_value_++);
    if (groups.size() > 1) groups_[&op] = std::move(groups);
  }

  void number_region(const Region& region) {
    const Operation* parent = region.parent_op();
    if (parent != nullptr && region.num_blocks() > 0) {
      const Block& block = region.block(0);
      if (parent->opcode() == Opcode::for_ && block.num_arguments() > 0) {
        set_name(block.argument(0), "loopIdx");
        for (size_t i = 1; i < block.num_arguments(); ++i)
          set_name(block.argument(i), "iterArg" + std::to_string(i - 1));
      } else if (parent->opcode() == Opcode::reduce) {
        const size_t n = block.num_arguments();
        for (size_t i = 0; i < n; ++i)
          set_name(block.argument(i),
                   std::string(i % 2 ? "reduce_rhs" : "reduce_lhs") + (n > 2 ? std::to_string(i / 2) : ""));
      }
    }
    for (size_t b = 0; b < region.num_blocks(); ++b) {
      const Block& block = region.block(b);
      for (const auto& arg : block.arguments()) {
        if (names_.count(arg.get())) continue;
        // Entry blocks name their arguments %argN; other blocks number them.
        set_name(arg.get(), b == 0 ? "arg" + std::to_string(next_argument_++) : std::string());
      }
      for (const auto& op : block.operations()) number_op(*op);
    }
  }

  void number_function(const Function& f) {
    std::vector<Context> work = {{&f.body(), 0, 0, 0, nullptr}};
    while (!work.empty()) {
      const Context c = work.back();
      work.pop_back();
      next_value_ = c.next_value;
      next_argument_ = c.next_argument;
      next_conflict_ = c.next_conflict;
      scopes_.push_back(std::make_unique<NameScope>());
      scopes_.back()->parent = c.parent;
      scope_ = scopes_.back().get();
      number_region(*c.region);
      for (size_t b = 0; b < c.region->num_blocks(); ++b)
        for (const auto& op : c.region->block(b).operations())
          for (const auto& nested : op->regions())
            work.push_back({nested.get(), next_value_, next_argument_, next_conflict_, scope_});
    }
  }

  std::unordered_map<const Value*, std::string> names_;
  std::unordered_map<const Operation*, std::vector<int>> groups_;
  std::vector<std::unique_ptr<NameScope>> scopes_;
  NameScope* scope_ = nullptr;
  unsigned next_value_ = 0, next_argument_ = 0, next_conflict_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Ops.

class OpPrinter {
 public:
  OpPrinter(const Function& f, const PrintOptions& options) : names_(f), options_(options) {}

  std::string function(const Function& f) {
    std::string out = "entry @" + f.name() + "(";
    for (size_t i = 0; i < f.num_parameters(); ++i) {
      if (i) out += ", ";
      out += names_.ref(f.parameter(i)) + ": " + f.parameter(i)->type().str();
    }
    out += ")";
    if (f.hints() && !f.hints()->entries.empty()) out += " optimization_hints=" + format_hints(*f.hints());
    out += " {\n";
    out += block_body(f.entry_block(), 1, true);
    out += "}";
    if (options_.locations) out += " " + format_location(f.location());
    return out;
  }

 private:
  static std::string indent(int level) { return std::string(static_cast<size_t>(2 * level), ' '); }

  std::string block_body(const Block& block, int level, bool print_terminator) {
    std::string out;
    for (size_t i = 0; i < block.operations().size(); ++i) {
      const Operation& op = *block.operations()[i];
      const bool last = i + 1 == block.operations().size();
      if (last && !print_terminator && op.spec().terminator) continue;
      out += indent(level) + op_text(op, level) + "\n";
    }
    return out;
  }

  // `{ ... }` of a control-flow region; an operand-less terminator of the implicit kind is elided.
  std::string control_region(const Region& region, Opcode implicit_terminator, int level) {
    if (region.num_blocks() == 0) return "{\n" + indent(level) + "}";
    const Block& block = region.block(0);
    bool print_terminator = true;
    if (!block.empty()) {
      const Operation& t = block.back();
      print_terminator = t.num_operands() != 0 || t.opcode() != implicit_terminator;
    }
    return "{\n" + block_body(block, level + 1, print_terminator) + indent(level) + "}";
  }

  std::string refs(const std::vector<Value*>& values) {
    std::string out;
    for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + names_.ref(values[i]);
    return out;
  }



  const std::vector<Value*>& group(const Operation& op, size_t i) {
    static const std::vector<Value*> empty;
    return i < op.operand_groups().size() ? op.operand_groups()[i] : empty;
  }
  Value* single(const Operation& op, size_t i) {
    const auto& g = group(op, i);
    if (g.size() != 1)
      throw InternalError("printer: operand group " + std::to_string(i) + " of " +
                          std::string(op.spec().mnemonic) + " holds " + std::to_string(g.size()) + " values");
    return g[0];
  }
  Value* optional(const Operation& op, size_t i) {
    const auto& g = group(op, i);
    return g.empty() ? nullptr : g[0];
  }

  std::string enum_word(const Operation& op, std::string_view name) {
    const AttrSpec* spec = op.spec().find_attr(name);
    const EnumKind kind = spec ? spec->enum_kind : EnumKind::signedness;
    return std::string(enum_keyword(kind, op.enum_attr_or_default(name)));
  }

  // ` rounding<mode>` when not the op's default; always the leading space of the custom directive.
  std::string rounding_directive(const Operation& op, RoundingMode fallback) {
    const AttrSpec* spec = op.spec().find_attr("rounding_mode");
    const int64_t def = spec ? spec->default_value : static_cast<int64_t>(fallback);
    const int64_t v = op.enum_attr_or_default("rounding_mode");
    return v == def ? " " : " rounding<" + std::string(enum_keyword(EnumKind::rounding, v)) + ">";
  }

  std::string unit(const Operation& op, std::string_view name) {
    return op.has_attr(name) ? " " + std::string(name) : "";
  }

  // `(`overflow` `` $overflow^)?`: printed only when not `none`.
  std::string overflow(const Operation& op) {
    const int64_t v = op.enum_attr_or_default("overflow");
    return v == 0 ? "" : " overflow<" + std::string(enum_keyword(EnumKind::overflow, v)) + ">";
  }

  std::string index_types(const std::vector<Value*>& index) {
    if (index.empty()) return "";
    bool all_same = true;
    for (const Value* v : index) all_same = all_same && v->type() == index[0]->type();
    if (all_same) return ", " + index[0]->type().str();
    std::string out;
    for (const Value* v : index) out += ", " + v->type().str();
    return out;
  }

  std::string memory_words(const Operation& op) {
    std::string out = " " + enum_word(op, "memory_ordering_semantics");
    if (op.has_attr("memory_scope")) out += " " + enum_word(op, "memory_scope");
    return out;
  }

  std::string op_hints(const Operation& op, const char* separator) {
    const Attribute* h = op.attr("optimization_hints");
    return h && !h->entries.empty() ? std::string(" optimization_hints") + separator + format_hints(*h) : "";
  }

  // The 13.4 `inbounds` flags of view loads and stores; all-false is the default and not shown.
  std::string inbounds(const Operation& op) {
    const Attribute* a = op.attr("inbounds");
    if (a == nullptr) return "";
    bool any = false;
    for (bool b : a->bools) any = any || b;
    if (!any) return "";
    std::string out = " inbounds = [";
    for (size_t i = 0; i < a->bools.size(); ++i)
      out += (i ? ", " : "") + std::string(a->bools[i] ? "true" : "false");
    return out + "]";
  }

  std::string terminator_operands(const Operation& op) {
    const std::vector<Value*> operands = op.operands();
    if (operands.empty()) return "";
    return " " + refs(operands) + " : " + join_types(types_of(operands));
  }

  std::string body_of(const Operation& op, int level);

  std::string op_text(const Operation& op, int level) {
    std::string out;
    if (op.num_results() > 0) out = names_.definition(op) + " = ";
    out += body_of(op, level);
    if (options_.locations) out += " " + format_location(op.location());
    return out;
  }

  SsaNames names_;
  const PrintOptions& options_;
};

std::string OpPrinter::body_of(const Operation& op, int level) {
  using O = Opcode;
  const OpSpec& spec = op.spec();
  const std::string name(op.opcode() == O::pow ? "fpowf" : spec.mnemonic);  // 13.4 printers spell pow `fpowf`
  auto r = [&](size_t i) { return names_.ref(single(op, i)); };
  auto result_type = [&](size_t i = 0) { return op.result(i)->type().str(); };
  auto operand_type = [&](size_t i) { return single(op, i)->type().str(); };

  switch (op.opcode()) {
    // $source attr-dict : type
    case O::absf:
    case O::absi:
    case O::ceil:
    case O::cos:
    case O::cosh:
    case O::floor:
    case O::log:
    case O::log2:
    case O::negf:
    case O::sin:
    case O::sinh:
    case O::tan:
      return name + " " + r(0) + " : " + result_type();
    case O::exp2:
    case O::rsqrt:
      return name + " " + r(0) + unit(op, "flush_to_zero") + " : " + result_type();
    case O::exp:
    case O::tanh:
      return name + " " + r(0) + rounding_directive(op, RoundingMode::full) + " : " + result_type();
    case O::sqrt:
      return name + " " + r(0) + rounding_directive(op, RoundingMode::nearest_even) +
             unit(op, "flush_to_zero") + " : " + result_type();
    case O::negi:
      return name + " " + r(0) + overflow(op) + " : " + result_type();
    // $lhs, $rhs attr-dict : type
    case O::andi:
    case O::ori:
    case O::xori:
    case O::remf:
    case O::mulhii:
    case O::atan2:
    case O::pow:
      return name + " " + r(0) + ", " + r(1) + " : " + result_type();
    case O::addf:
    case O::subf:
    case O::mulf:
    case O::divf:
      return name + " " + r(0) + ", " + r(1) + rounding_directive(op, RoundingMode::nearest_even) +
             unit(op, "flush_to_zero") + " : " + result_type();
    case O::fma:
      return name + " " + r(0) + ", " + r(1) + ", " + r(2) +
             rounding_directive(op, RoundingMode::nearest_even) + unit(op, "flush_to_zero") + " : " +
             result_type();
    case O::addi:
    case O::subi:
    case O::muli:
    case O::shli:
      return name + " " + r(0) + ", " + r(1) + overflow(op) + " : " + result_type();
    case O::maxi:
    case O::mini:
    case O::remi:
    case O::shri:
      return name + " " + r(0) + ", " + r(1) + " " + enum_word(op, "signedness") + " : " + result_type();
    case O::maxf:
    case O::minf:
      return name + " " + r(0) + ", " + r(1) + unit(op, "flush_to_zero") + unit(op, "propagate_nan") + " : " +
             result_type();
    case O::divi: {
      const int64_t rounding = op.enum_attr_or_default("rounding");
      const std::string rounding_text =
          rounding == static_cast<int64_t>(RoundingMode::zero)
              ? ""
              : " rounding<" + std::string(enum_keyword(EnumKind::rounding, rounding)) + ">";
      return name + " " + r(0) + ", " + r(1) + " " + enum_word(op, "signedness") + rounding_text + " : " +
             result_type();
    }
    case O::cmpf:
      return name + " " + enum_word(op, "comparison_predicate") + " " + enum_word(op, "comparison_ordering") +
             " " + r(0) + ", " + r(1) + " : " + operand_type(0) + " -> " + result_type();
    case O::cmpi:
      return name + " " + enum_word(op, "comparison_predicate") + " " + r(0) + ", " + r(1) + ", " +
             enum_word(op, "signedness") + " : " + operand_type(0) + " -> " + result_type();
    case O::select:
      return name + " " + r(0) + ", " + r(1) + ", " + r(2) + " : " + operand_type(0) + ", " + result_type();
    // Conversions: $from ... : from -> to
    case O::bitcast:
    case O::broadcast:
    case O::reshape:
    case O::int_to_ptr:
    case O::ptr_to_int:
    case O::ptr_to_ptr:
    case O::pack:
    case O::unpack:
      return name + " " + r(0) + " : " + operand_type(0) + " -> " + result_type();
    case O::exti:
      return name + " " + r(0) + " " + enum_word(op, "signedness") + " : " + operand_type(0) + " -> " +
             result_type();
    case O::trunci:
      return name + " " + r(0) + overflow(op) + " : " + operand_type(0) + " -> " + result_type();
    case O::ftof:
      return name + " " + r(0) + rounding_directive(op, RoundingMode::nearest_even) + " : " +
             operand_type(0) + " -> " + result_type();
    case O::itof:
      return name + " " + r(0) + " " + enum_word(op, "signedness") +
             rounding_directive(op, RoundingMode::nearest_even) + " : " + operand_type(0) + " -> " +
             result_type();
    case O::ftoi:
      return name + " " + r(0) + " " + enum_word(op, "signedness") +
             rounding_directive(op, RoundingMode::nearest_int_to_zero) + unit(op, "saturating") + " : " +
             operand_type(0) + " -> " + result_type();
    case O::fpowi:
      return name + " " + r(0) + ", " + r(1) + " : " + operand_type(0) + ", " + operand_type(1);
    case O::permute: {
      const Attribute* perm = op.attr("permutation");
      return name + " " + r(0) + " " + format_int_list(perm ? perm->ints : std::vector<int64_t>{}) + " : " +
             operand_type(0) + " -> " + result_type();
    }
    case O::cat: {
      const Attribute* dim = op.attr("dim");
      return name + " " + r(0) + ", " + r(1) + " dim = " + std::to_string(dim ? dim->int_value : 0) + " : " +
             operand_type(0) + ", " + operand_type(1) + " -> " + result_type();
    }
    case O::extract:
      return name + " " + r(0) + "[" + refs(group(op, 1)) + "] : " + operand_type(0) + " -> " + result_type();
    case O::insert:
      return name + " " + r(0) + ", " + r(1) + "[" + refs(group(op, 2)) + "] : " + operand_type(0) + ", " +
             operand_type(1);
    case O::offset:
      return name + " " + r(0) + ", " + r(1) + " : " + operand_type(0) + ", " + operand_type(1) + " -> " +
             result_type();
    case O::iota:
    case O::make_token:
      return name + " : " + result_type();
    case O::get_tile_block_id:
    case O::get_num_tile_blocks:
      return name + " : " + result_type();
    case O::join_tokens:
      return name + " " + refs(group(op, 0)) + " : " + result_type();
    case O::constant: {
      const Attribute* value = op.attr("value");
      if (value == nullptr) throw InternalError("printer: constant without a value attribute");
      return name + " " + format_dense(*value);
    }
    case O::assume: {
      const Attribute* p = op.attr("predicate");
      if (p == nullptr) throw InternalError("printer: assume without a predicate");
      return name + " " + format_predicate(*p) + ", " + r(0) + " : " + operand_type(0);
    }
    case O::assert_: {
      const Attribute* m = op.attr("message");
      return name + " " + r(0) + ", " + quoted(m ? m->str : "") + " : " + operand_type(0);
    }
    case O::print_tko: {
      const Attribute* s = op.attr("str");
      std::string out = name + " " + quoted(s ? s->str : "");
      const auto& args = group(op, 0);
      if (!args.empty()) out += ", " + refs(args);
      if (Value* token = optional(op, 1)) out += " token=" + names_.ref(token);
      if (!args.empty()) out += " : " + join_types(types_of(args));
      return out + " -> " + (op.num_results() ? result_type() : Type::token().str());
    }
    case O::mmaf:
      return name + " " + r(0) + ", " + r(1) + ", " + r(2) + unit(op, "fast_acc") + " : " + operand_type(0) +
             ", " + operand_type(1) + ", " + operand_type(2);
    case O::mmai:
      return name + " " + r(0) + ", " + r(1) + ", " + r(2) + " " + enum_word(op, "signedness_lhs") + " " +
             enum_word(op, "signedness_rhs") + " : " + operand_type(0) + ", " + operand_type(1) + ", " +
             operand_type(2);
    case O::mmaf_scaled:
      return name + " " + r(0) + ", " + r(1) + ", " + r(2) + ", " + r(3) + ", " + r(4) + " : " +
             operand_type(0) + ", " + operand_type(1) + ", " + operand_type(2) + ", " + operand_type(3) +
             ", " + operand_type(4);
    case O::alloca: {
      const Attribute* n = op.attr("num_elem");
      const Attribute* a = op.attr("alignment");
      return name + " num_elem = " + std::to_string(n ? n->int_value : 0) +
             ", alignment = " + std::to_string(a ? a->int_value : 0) + unit(op, "global") + " : " +
             result_type();
    }
    case O::get_global: {
      const Attribute* n = op.attr("name");
      return name + " @" + (n ? n->str : std::string()) + " : " + result_type();
    }
    // Views.
    case O::make_tensor_view: {
      const Type tv = op.result(0)->type();
      const auto& dyn_shape = group(op, 1);
      const auto& dyn_strides = group(op, 2);
      auto mixed = [&](const std::vector<int64_t>& dims, const std::vector<Value*>& dynamic) {
        std::string out;
        size_t next = 0;
        for (size_t i = 0; i < dims.size(); ++i) {
          if (i) out += ", ";
          if (dims[i] != kDynamic) {
            out += std::to_string(dims[i]);
          } else if (next < dynamic.size()) {
            out += names_.ref(dynamic[next++]);
          } else {
            throw InternalError("printer: make_tensor_view has fewer dynamic operands than `?` in " +
                                tv.str());
          }
        }
        return out;
      };
      std::string out = name + " " + r(0) + ", shape = [" + mixed(tv.shape(), dyn_shape) + "], strides = [" +
                        mixed(tv.strides(), dyn_strides) + "] : ";
      // 13.5 printers name the base's type when its pointer carries a ptr_attr.
      const Type base = single(op, 0)->type();
      const bool typed_base = base.is(TypeKind::tile) && base.element().is(TypeKind::pointer) &&
                              base.element().ptr_attr().has_value();
      if (typed_base) out += base.str();
      if (!dyn_shape.empty() || !dyn_strides.empty())
        out += (typed_base ? ", " : "") + (dyn_shape.empty() ? dyn_strides : dyn_shape).front()->type().str();
      if (typed_base || !dyn_shape.empty() || !dyn_strides.empty()) out += " -> ";
      return out + tv.str();
    }
    case O::make_partition_view:
    case O::make_strided_view:
    case O::make_gather_scatter_view:
      return name + " " + r(0) + " : " + result_type();
    case O::get_index_space_shape:
    case O::get_tensor_shape:
      return name + " " + r(0) + " : " + operand_type(0) + " -> " +
             (op.num_results() ? result_type() : std::string("tile<i32>"));
    case O::load_view_tko: {
      std::string out = name + memory_words(op) + " " + r(0) + "[" + refs(group(op, 1)) + "]";
      if (Value* token = optional(op, 2)) out += " token = " + names_.ref(token);
      out += op_hints(op, " = ") + inbounds(op);
      return out + " : " + operand_type(0) + index_types(group(op, 1)) + " -> " + result_type(0) + ", " +
             result_type(1);
    }
    case O::store_view_tko: {
      std::string out = name + memory_words(op) + " " + r(0) + ", " + r(1) + "[" + refs(group(op, 2)) + "]";
      if (Value* token = optional(op, 3)) out += " token = " + names_.ref(token);
      out += op_hints(op, " = ") + inbounds(op);
      return out + " : " + operand_type(0) + ", " + operand_type(1) + index_types(group(op, 2)) + " -> " +
             result_type();
    }
    // 13.5 multimem view ops; a non-default reduction is printed in the attribute dictionary, as the
    // official printer does.
    case O::multimem_load_reduce_view_tko:
    case O::multimem_reduce_view_tko:
    case O::multimem_store_view_tko: {
      const bool load = op.opcode() == O::multimem_load_reduce_view_tko;
      const size_t index_group = load ? 1 : 2;
      std::string out = name + memory_words(op) + " " + r(0) + (load ? "" : ", " + r(1)) + "[" +
                        refs(group(op, index_group)) + "]";
      Value* token = optional(op, index_group + 1);
      if (token) out += " token = " + names_.ref(token);
      // The official printer leaves a space for the inbounds list even when it prints none.
      const std::string bounds = inbounds(op);
      out += " " + (bounds.empty() ? bounds : bounds.substr(1)) + " ";
      const int64_t kind = op.spec().find_attr("reduction") ? op.enum_attr_or_default("reduction") : 0;
      if (kind != 0)
        out += "attributes {reduction = #cuda_tile.multimem_reduction_kind<" +
               std::string(enum_keyword(EnumKind::multimem_reduction, kind)) + ">} ";
      out += ": " + operand_type(0) + (load ? "" : ", " + operand_type(1)) + index_types(group(op, index_group)) +
             (token ? ", token" : "") + " -> " + result_type(0);
      return load ? out + ", " + result_type(1) : out;
    }
    case O::atomic_red_view_tko: {
      std::string out = name + memory_words(op) + " " + r(0) + "[" + refs(group(op, 1)) + "], " +
                        enum_word(op, "mode") + ", " + r(2);
      if (Value* token = optional(op, 3)) out += " token = " + names_.ref(token);
      out += inbounds(op);
      return out + " : " + operand_type(2) + ", " + operand_type(0) + index_types(group(op, 1)) + " -> " +
             result_type();
    }
    case O::load_ptr_tko: {
      std::string out = name + memory_words(op) + " " + r(0);
      std::string types = operand_type(0);
      for (size_t g : {size_t{1}, size_t{2}})
        if (Value* v = optional(op, g)) {
          out += ", " + names_.ref(v);
          types += ", " + v->type().str();
        }
      if (Value* token = optional(op, 3)) out += " token=" + names_.ref(token);
      out += op_hints(op, " = ");
      return out + " : " + types + " -> " + result_type(0) + ", " + result_type(1);
    }
    case O::store_ptr_tko: {
      std::string out = name + memory_words(op) + " " + r(0) + ", " + r(1);
      std::string types = operand_type(0) + ", " + operand_type(1);
      if (Value* mask = optional(op, 2)) {
        out += ", " + names_.ref(mask);
        types += ", " + mask->type().str();
      }
      if (Value* token = optional(op, 3)) out += " token=" + names_.ref(token);
      out += op_hints(op, " = ");
      return out + " : " + types + " -> " + result_type();
    }
    case O::atomic_rmw_tko:
    case O::atomic_cas_tko: {
      const bool cas = op.opcode() == O::atomic_cas_tko;
      std::string out = name + " " + enum_word(op, "memory_ordering_semantics") + " " +
                        enum_word(op, "memory_scope") + " " + r(0) + ", " +
                        (cas ? r(1) : enum_word(op, "mode")) + ", " + r(cas ? 2 : 1);
      std::string types = operand_type(0) + ", " + operand_type(cas ? 2 : 1);
      if (Value* mask = optional(op, cas ? 3 : 2)) {
        out += ", " + names_.ref(mask);
        types += ", " + mask->type().str();
      }
      if (Value* token = optional(op, cas ? 4 : 3)) out += " token=" + names_.ref(token);
      return out + " : " + types + " -> " + result_type(0) + ", " + result_type(1);
    }
    case O::gdc_launch_dependents_tko:
    case O::gdc_wait_tko: {
      std::string out = name;
      if (Value* token = optional(op, 0)) out += " token = " + names_.ref(token);
      return out + " -> " + result_type();
    }
    case O::memory_fence_alias_tko:
      return name + " " + r(0);
    // Terminators.
    case O::return_:
    case O::yield:
    case O::continue_:
    case O::break_:
      return name + terminator_operands(op);
    // Region-bearing ops.
    case O::if_: {
      std::string out = name + " " + r(0);
      if (op.num_results()) out += " -> (" + join_types(op.result_types()) + ")";
      out += " " + control_region(op.region(0), O::yield, level);
      if (op.num_regions() > 1 && op.region(1).num_blocks() > 0)
        out += " else " + control_region(op.region(1), O::yield, level);
      return out;
    }
    case O::for_: {
      const Block& body = op.region(0).block(0);
      std::string out = name + (op.has_attr("unsignedCmp") ? " unsigned" : "") + " " +
                        names_.ref(body.argument(0)) + " in (" + r(0) + " to " + r(1) + ", step " + r(2) +
                        ") : " + operand_type(0) + " ";
      const auto& init = group(op, 3);
      if (!init.empty()) {
        out += "iter_values(";
        for (size_t i = 0; i < init.size(); ++i)
          out += (i ? ", " : "") + names_.ref(body.argument(i + 1)) + " = " + names_.ref(init[i]);
        out += ") -> (" + join_types(types_of(init)) + ") ";
      }
      return out + control_region(op.region(0), O::continue_, level);
    }
    case O::loop: {
      const Block& body = op.region(0).block(0);
      const auto& init = group(op, 0);
      std::string out = name + " ";
      if (!init.empty()) {
        out += "iter_values(";
        for (size_t i = 0; i < init.size(); ++i)
          out += (i ? ", " : "") + names_.ref(body.argument(i)) + " = " + names_.ref(init[i]);
        out += ") ";
      }
      if (!init.empty() || op.num_results()) out += ": ";
      if (!init.empty()) out += join_types(types_of(init)) + " " + (op.num_results() ? "-> " : "");
      if (op.num_results()) out += join_types(op.result_types()) + " ";
      return out + control_region(op.region(0), O::continue_, level);
    }
    case O::reduce:
    case O::scan: {
      const auto& operands = group(op, 0);
      std::string out = name + " " + refs(operands) + " ";
      const Attribute* dim = op.attr("dim");
      out += "dim=" + std::to_string(dim ? dim->int_value : 0);
      if (op.opcode() == O::scan) {
        const Attribute* reverse = op.attr("reverse");
        out += " reverse=" + std::string(reverse && reverse->int_value ? "true" : "false");
      }
      out += " identities=[";
      if (const Attribute* ids = op.attr("identities"))
        for (size_t i = 0; i < ids->elements.size(); ++i)
          out += (i ? ", " : "") + format_typed_attr(ids->elements[i]);
      out += "] : " + join_types(types_of(operands)) + " -> " + join_types(op.result_types()) + " \n" +
             indent(level);
      const Block& body = op.region(0).block(0);
      out += "(";
      for (size_t i = 0; i < body.num_arguments(); ++i)
        out += (i ? ", " : "") + names_.ref(body.argument(i)) + ": " + body.argument(i)->type().str();
      return out + ") {\n" + block_body(body, level + 1, true) + indent(level) + "}";
    }
    case O::entry:
    case O::global:
    case O::module:
      throw InternalError("printer: `" + name + "` cannot appear inside a function body");
  }
  throw InternalError("printer: no syntax for opcode " + std::to_string(static_cast<int>(op.opcode())));
}

}  // namespace

std::string print_global(const Global& g) {
  // The visibility directive keeps its leading space even when it prints nothing (`global  @g`).
  std::string out =
      std::string("global ") + (g.is_private ? "private " : "") + (g.is_constant ? " constant" : "");
  out += " @" + g.name;
  if (g.alignment) out += " alignment = " + std::to_string(g.alignment);
  return out + " " + format_dense(g.value);
}

std::string print_function(const Function& function, const PrintOptions& options) {
  return OpPrinter(function, options).function(function);
}

std::string print_module(const Module& module, const PrintOptions& options) {
  std::string out = "cuda_tile.module @" + module.name();
  if (module.producer()) out += " attributes {producer = " + quoted(*module.producer()) + "}";
  out += " {\n";
  for (const Global& g : module.globals()) out += "  " + print_global(g) + "\n";
  for (const auto& f : module.functions()) {
    const std::string text = print_function(*f, options);
    size_t start = 0;
    while (start < text.size()) {
      const size_t end = text.find('\n', start);
      const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      out += "  " + line + "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return out + "}\n";
}

std::ostream& operator<<(std::ostream& os, const Module& module) {
  return os << print_module(module);
}
std::ostream& operator<<(std::ostream& os, const Function& function) {
  return os << print_function(function);
}
std::ostream& operator<<(std::ostream& os, const Type& type) {
  return os << type.str();
}

}  // namespace cutile::ir
