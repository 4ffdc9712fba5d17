// Tile IR attributes: typed constants, enums, arrays, dictionaries, optimization hints and
// assume predicates. Plain values; nested attributes are held by value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cutile/ir/type.hpp"

namespace cutile::ir {

/// Enumerations carried by op attributes; values are the bytecode encodings.
enum class Signedness : uint8_t { unsigned_, signed_ };
enum class IntegerOverflow : uint8_t { none, no_signed_wrap, no_unsigned_wrap, no_wrap };
enum class RoundingMode : uint8_t {
  nearest_even, zero, negative_inf, positive_inf, approx, full, nearest_int_to_zero,
  nearest_away,  ///< 13.4
};
enum class ComparisonPredicate : uint8_t {
  equal, not_equal, less_than, less_than_or_equal, greater_than, greater_than_or_equal
};
enum class ComparisonOrdering : uint8_t { unordered, ordered };
enum class AtomicRmwMode : uint8_t { and_, or_, xor_, add, addf, max, min, umax, umin, xchg };
enum class MemoryOrdering : uint8_t { weak, relaxed, acquire, release, acq_rel };
enum class MemoryScope : uint8_t { tl_blk, device, sys };
/// The combining operator of the 13.5 multimem view ops (`reduction`; add is the default).
enum class MultimemReduction : uint8_t { add, min, max, and_, or_, xor_, umin, umax };

/// Which enumeration an enum attribute belongs to (for printing and verification).
enum class EnumKind : uint8_t {
  signedness, overflow, rounding, comparison_predicate, comparison_ordering, atomic_mode,
  memory_ordering, memory_scope,
  multimem_reduction,  ///< 13.5
};
/// Text keyword of an enum value ("nearest_even", "signed", ...); empty if out of range.
std::string_view enum_keyword(EnumKind kind, int64_t value);
/// Number of values the enumeration defines in `version`.
int64_t enum_size(EnumKind kind, Version version);

enum class AttrKind : uint8_t {
  // Self-contained kinds (have a bytecode tag of their own).
  integer,             ///< type (an integer element type) + value
  floating,            ///< type (a float element type) + bit pattern
  boolean,
  type,
  string,
  array,               ///< of typed attributes (integer / floating / boolean)
  dense_elements,      ///< tile type + raw row-major storage (constants, globals)
  div_by,              ///< assume predicate
  same_elements,       ///< assume predicate
  dictionary,
  optimization_hints,  ///< { arch key : dictionary }
  bounded,             ///< assume predicate
  // Kinds that only exist in an op's inline attribute slots.
  enum_value,          ///< EnumKind + value
  i32_array,
  i64_array,
  bool_array,
  unit,                ///< presence-only flag
};

struct Attribute {
  AttrKind kind = AttrKind::unit;
  Type type;                       ///< integer, floating, type, dense_elements
  int64_t int_value = 0;           ///< integer, boolean, enum_value, div_by divisor
  uint64_t float_bits = 0;         ///< floating: the bit pattern in the type's own width
  EnumKind enum_kind = EnumKind::signedness;
  std::string str;                 ///< string
  std::vector<Attribute> elements; ///< array
  std::vector<std::pair<std::string, Attribute>> entries;  ///< dictionary, optimization_hints
  std::vector<int64_t> ints;       ///< i32_array, i64_array, same_elements
  std::vector<bool> bools;         ///< bool_array
  std::vector<uint8_t> raw;        ///< dense_elements storage (bytecode layout, splat if one element)
  std::optional<int64_t> every;    ///< div_by: every E ...
  std::optional<int64_t> along;    ///< ... along dim A
  std::optional<int64_t> lower;    ///< bounded
  std::optional<int64_t> upper;    ///< bounded

  static Attribute integer(Type element_type, int64_t value);
  static Attribute i32(int64_t value) { return integer(Type::element(ElementType::i32), value); }
  static Attribute i64(int64_t value) { return integer(Type::element(ElementType::i64), value); }
  /// A float constant, rounded to nearest-even in `element_type`'s format.
  static Attribute floating(Type element_type, double value);
  static Attribute floating_bits(Type element_type, uint64_t bits);
  static Attribute boolean(bool value);
  static Attribute type_attr(Type t);
  static Attribute string(std::string value);
  static Attribute array(std::vector<Attribute> elements);
  static Attribute dense(Type tile_type, std::vector<uint8_t> raw);
  static Attribute div_by(int64_t divisor, std::optional<int64_t> every = std::nullopt,
                          std::optional<int64_t> along = std::nullopt);
  static Attribute same_elements(std::vector<int64_t> values);
  static Attribute bounded(std::optional<int64_t> lower, std::optional<int64_t> upper);
  static Attribute dictionary(std::vector<std::pair<std::string, Attribute>> entries);
  static Attribute optimization_hints(std::vector<std::pair<std::string, Attribute>> per_arch);
  static Attribute enum_attr(EnumKind kind, int64_t value);
  template <class E>
  static Attribute enum_of(EnumKind kind, E value) { return enum_attr(kind, static_cast<int64_t>(value)); }
  static Attribute i32_array(std::vector<int64_t> values);
  static Attribute i64_array(std::vector<int64_t> values);
  static Attribute bool_array(std::vector<bool> values);
  static Attribute unit();

  /// Dictionary / hints lookup; nullptr when absent.
  const Attribute* find(std::string_view key) const;
  /// The value of a floating attribute as a double (exact for every supported format).
  double float_value() const;

  bool operator==(const Attribute& other) const;
  bool operator!=(const Attribute& other) const { return !(*this == other); }
};

}  // namespace cutile::ir
