#include "cutile/ir/attribute.hpp"

#include <array>

#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"

namespace cutile::ir {
namespace {

constexpr std::array<std::string_view, 2> kSignedness = {"unsigned", "signed"};
constexpr std::array<std::string_view, 4> kOverflow = {"none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"};
constexpr std::array<std::string_view, 8> kRounding = {"nearest_even", "zero", "negative_inf", "positive_inf",
                                                       "approx", "full", "nearest_int_to_zero", "nearest_away"};
constexpr std::array<std::string_view, 6> kPredicate = {"equal", "not_equal", "less_than",
                                                        "less_than_or_equal", "greater_than",
                                                        "greater_than_or_equal"};
constexpr std::array<std::string_view, 2> kOrdering = {"unordered", "ordered"};
constexpr std::array<std::string_view, 10> kAtomicMode = {"and", "or", "xor", "add", "addf",
                                                          "max", "min", "umax", "umin", "xchg"};
constexpr std::array<std::string_view, 5> kMemoryOrdering = {"weak", "relaxed", "acquire", "release", "acq_rel"};
constexpr std::array<std::string_view, 3> kScope = {"tl_blk", "device", "sys"};
constexpr std::array<std::string_view, 8> kMultimemReduction = {"add", "min", "max", "and", "or", "xor", "umin", "umax"};

template <size_t N>
std::string_view pick(const std::array<std::string_view, N>& names, int64_t v) {
  return v >= 0 && static_cast<size_t>(v) < N ? names[static_cast<size_t>(v)] : std::string_view();
}

Attribute of_kind(AttrKind kind) {
  Attribute a;
  a.kind = kind;
  return a;
}

}  // namespace

std::string_view enum_keyword(EnumKind kind, int64_t value) {
  switch (kind) {
    case EnumKind::signedness: return pick(kSignedness, value);
    case EnumKind::overflow: return pick(kOverflow, value);
    case EnumKind::rounding: return pick(kRounding, value);
    case EnumKind::comparison_predicate: return pick(kPredicate, value);
    case EnumKind::comparison_ordering: return pick(kOrdering, value);
    case EnumKind::atomic_mode: return pick(kAtomicMode, value);
    case EnumKind::memory_ordering: return pick(kMemoryOrdering, value);
    case EnumKind::memory_scope: return pick(kScope, value);
    case EnumKind::multimem_reduction: return pick(kMultimemReduction, value);
  }
  return {};
}

int64_t enum_size(EnumKind kind, Version version) {
  switch (kind) {
    case EnumKind::signedness: return kSignedness.size();
    case EnumKind::overflow: return kOverflow.size();
    case EnumKind::rounding: return version >= v13_4 ? 8 : 7;
    case EnumKind::comparison_predicate: return kPredicate.size();
    case EnumKind::comparison_ordering: return kOrdering.size();
    case EnumKind::atomic_mode: return kAtomicMode.size();
    case EnumKind::memory_ordering: return kMemoryOrdering.size();
    case EnumKind::memory_scope: return kScope.size();
    case EnumKind::multimem_reduction: return version >= v13_5 ? kMultimemReduction.size() : 0;
  }
  return 0;
}

Attribute Attribute::integer(Type element_type, int64_t value) {
  Attribute a = of_kind(AttrKind::integer);
  a.type = std::move(element_type);
  a.int_value = value;
  return a;
}

Attribute Attribute::floating(Type element_type, double value) {
  const uint64_t bits = float_to_bits(element_type.element_type(), value);
  return floating_bits(std::move(element_type), bits);
}

Attribute Attribute::floating_bits(Type element_type, uint64_t bits) {
  Attribute a = of_kind(AttrKind::floating);
  a.type = std::move(element_type);
  a.float_bits = bits;
  return a;
}

Attribute Attribute::boolean(bool value) {
  Attribute a = of_kind(AttrKind::boolean);
  a.int_value = value ? 1 : 0;
  return a;
}

Attribute Attribute::type_attr(Type t) {
  Attribute a = of_kind(AttrKind::type);
  a.type = std::move(t);
  return a;
}

Attribute Attribute::string(std::string value) {
  Attribute a = of_kind(AttrKind::string);
  a.str = std::move(value);
  return a;
}

Attribute Attribute::array(std::vector<Attribute> elements) {
  Attribute a = of_kind(AttrKind::array);
  a.elements = std::move(elements);
  return a;
}

Attribute Attribute::dense(Type tile_type, std::vector<uint8_t> raw) {
  Attribute a = of_kind(AttrKind::dense_elements);
  a.type = std::move(tile_type);
  a.raw = std::move(raw);
  return a;
}

Attribute Attribute::div_by(int64_t divisor, std::optional<int64_t> every, std::optional<int64_t> along) {
  Attribute a = of_kind(AttrKind::div_by);
  a.int_value = divisor;
  a.every = every;
  a.along = along;
  return a;
}

Attribute Attribute::same_elements(std::vector<int64_t> values) {
  Attribute a = of_kind(AttrKind::same_elements);
  a.ints = std::move(values);
  return a;
}

Attribute Attribute::bounded(std::optional<int64_t> lower, std::optional<int64_t> upper) {
  Attribute a = of_kind(AttrKind::bounded);
  a.lower = lower;
  a.upper = upper;
  return a;
}

Attribute Attribute::dictionary(std::vector<std::pair<std::string, Attribute>> entries) {
  Attribute a = of_kind(AttrKind::dictionary);
  a.entries = std::move(entries);
  return a;
}

Attribute Attribute::optimization_hints(std::vector<std::pair<std::string, Attribute>> per_arch) {
  Attribute a = of_kind(AttrKind::optimization_hints);
  a.entries = std::move(per_arch);
  return a;
}

Attribute Attribute::enum_attr(EnumKind kind, int64_t value) {
  Attribute a = of_kind(AttrKind::enum_value);
  a.enum_kind = kind;
  a.int_value = value;
  return a;
}

Attribute Attribute::i32_array(std::vector<int64_t> values) {
  Attribute a = of_kind(AttrKind::i32_array);
  a.ints = std::move(values);
  return a;
}

Attribute Attribute::i64_array(std::vector<int64_t> values) {
  Attribute a = of_kind(AttrKind::i64_array);
  a.ints = std::move(values);
  return a;
}

Attribute Attribute::bool_array(std::vector<bool> values) {
  Attribute a = of_kind(AttrKind::bool_array);
  a.bools = std::move(values);
  return a;
}

Attribute Attribute::unit() { return of_kind(AttrKind::unit); }

const Attribute* Attribute::find(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

double Attribute::float_value() const {
  if (kind != AttrKind::floating) throw InternalError("float_value() of a non-float attribute");
  return bits_to_float(type.element_type(), float_bits);
}

bool Attribute::operator==(const Attribute& o) const {
  return kind == o.kind && type == o.type && int_value == o.int_value && float_bits == o.float_bits &&
         enum_kind == o.enum_kind && str == o.str && elements == o.elements && entries == o.entries &&
         ints == o.ints && bools == o.bools && raw == o.raw && every == o.every && along == o.along &&
         lower == o.lower && upper == o.upper;
}

}  // namespace cutile::ir
