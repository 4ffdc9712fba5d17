// The little expression language of op descriptions (spec.hpp): dims of tensor types and conditions.
// Expressions are parsed once per description and evaluated per call, in long double, which holds every
// int64 exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cutile::op::detail {

/// The names an expression may use, and how they resolve: shape symbols (collected as they appear),
/// dtype variables (only inside size()), scalars.
struct Names {
  std::vector<std::string> symbols;           ///< grows as new symbols are parsed
  std::vector<std::string_view> dtype_vars;
  std::vector<std::string_view> scalars;
};

/// Values to evaluate with: symbols (nullopt: unbound), scalars, and the element size of each dtype
/// variable (0: unbound).
struct Environment {
  std::span<const std::optional<long double>> symbols;
  std::span<const long double> scalars;
  std::span<const int64_t> dtype_sizes;
};

class Expression {
 public:
  /// A std::invalid_argument saying what and where, for text the language does not have.
  static Expression parse(std::string_view text, Names& names);

  /// nullopt when it reads an unbound symbol or dtype variable.
  std::optional<long double> evaluate(const Environment& env) const;
  /// The symbol of a lone-symbol expression ("M").
  std::optional<int> lone_symbol() const;
  /// (k, S) of a `k*S` or `S*k` expression with an integer k > 1.
  std::optional<std::pair<int64_t, int>> scaled_symbol() const;
  /// The shape symbols it reads.
  std::vector<int> symbols() const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

/// "E[M, N]": the dtype token ("E", "f32") and the dims.
struct ParsedType {
  std::string_view dtype;
  std::vector<Expression> dims;
};
ParsedType parse_type(std::string_view text, Names& names);

/// "%g"-like text of a value: integers without a fraction.
std::string format_value(long double value);

}  // namespace cutile::op::detail
