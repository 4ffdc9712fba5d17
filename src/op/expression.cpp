#include "expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cutile::op::detail {

struct Expression::Node {
  enum class Kind : uint8_t { number, symbol, scalar, size_of, negate, logical_not, binary, call };
  Kind kind = Kind::number;
  long double number = 0;
  int index = 0;            // symbol, scalar, dtype variable (size_of)
  std::string_view op;      // binary: "+", "<=", "&&", ...; call: the function
  std::vector<std::shared_ptr<const Node>> operands;
};

namespace {

using Node = Expression::Node;
using NodePtr = std::shared_ptr<const Node>;

class Parser {
 public:
  Parser(std::string_view text, Names& names) : text_(text), names_(names) {}

  NodePtr parse_all() {
    NodePtr root = parse_or();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(text_.substr(pos_, 1)) + "'");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(size_t at, const std::string& what) const {
    throw std::invalid_argument("'" + std::string(text_) + "', at " + std::to_string(at) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool take(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    // "<" must not take the first half of "<=", "=" the first of "==", "|" of "||" ...
    if (token.size() == 1 && pos_ + 1 < text_.size() && std::string_view("<>=!").find(token[0]) != std::string_view::npos &&
        text_[pos_ + 1] == '=')
      return false;
    pos_ += token.size();
    return true;
  }

  static NodePtr binary(std::string_view op, NodePtr a, NodePtr b) {
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::binary;
    node->op = op;
    node->operands = {std::move(a), std::move(b)};
    return node;
  }

  NodePtr parse_or() {
    NodePtr left = parse_and();
    while (take("||")) left = binary("||", left, parse_and());
    return left;
  }
  NodePtr parse_and() {
    NodePtr left = parse_comparison();
    while (take("&&")) left = binary("&&", left, parse_comparison());
    return left;
  }
  NodePtr parse_comparison() {
    NodePtr left = parse_sum();
    for (std::string_view op : {"==", "!=", "<=", ">=", "<", ">"})
      if (take(op)) return binary(op, left, parse_sum());
    return left;
  }
  NodePtr parse_sum() {
    NodePtr left = parse_product();
    for (;;) {
      if (take("+"))
        left = binary("+", left, parse_product());
      else if (take("-"))
        left = binary("-", left, parse_product());
      else
        return left;
    }
  }
  NodePtr parse_product() {
    NodePtr left = parse_unary();
    for (;;) {
      if (take("*"))
        left = binary("*", left, parse_unary());
      else if (take("/"))
        left = binary("/", left, parse_unary());
      else if (take("%"))
        left = binary("%", left, parse_unary());
      else
        return left;
    }
  }
  NodePtr parse_unary() {
    if (take("-") || take("!")) {
      auto node = std::make_shared<Node>();
      node->kind = text_[pos_ - 1] == '-' ? Node::Kind::negate : Node::Kind::logical_not;
      node->operands = {parse_unary()};
      return node;
    }
    return parse_atom();
  }

  std::string_view identifier() {
    skip_space();
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  NodePtr parse_atom() {
    skip_space();
    if (pos_ == text_.size()) fail("an operand is missing");
    if (take("(")) {
      NodePtr inner = parse_or();
      if (!take(")")) fail("')' is missing");
      return inner;
    }
    auto node = std::make_shared<Node>();
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const std::string rest(text_.substr(pos_));
      size_t used = 0;
      node->number = std::stold(rest, &used);
      pos_ += used;
      return node;
    }
    const size_t at = pos_;
    const std::string_view name = identifier();
    if (name.empty()) fail("unexpected '" + std::string(1, c) + "'");
    if (take("(")) return parse_call(name, at);
    const auto scalar = std::find(names_.scalars.begin(), names_.scalars.end(), name);
    if (scalar != names_.scalars.end()) {
      node->kind = Node::Kind::scalar;
      node->index = static_cast<int>(scalar - names_.scalars.begin());
      return node;
    }
    if (std::find(names_.dtype_vars.begin(), names_.dtype_vars.end(), name) != names_.dtype_vars.end())
      fail_at(at, "the dtype variable " + std::string(name) + " is not a number; size(" + std::string(name) +
                      ") is its bytes");
    auto symbol = std::find(names_.symbols.begin(), names_.symbols.end(), name);
    if (symbol == names_.symbols.end()) symbol = names_.symbols.insert(names_.symbols.end(), std::string(name));
    node->kind = Node::Kind::symbol;
    node->index = static_cast<int>(symbol - names_.symbols.begin());
    return node;
  }

  NodePtr parse_call(std::string_view function, size_t at) {
    auto node = std::make_shared<Node>();
    if (function == "size") {
      const std::string_view var = identifier();
      const auto it = std::find(names_.dtype_vars.begin(), names_.dtype_vars.end(), var);
      if (it == names_.dtype_vars.end()) fail("size() takes a dtype variable, got '" + std::string(var) + "'");
      if (!take(")")) fail("')' is missing");
      node->kind = Node::Kind::size_of;
      node->index = static_cast<int>(it - names_.dtype_vars.begin());
      return node;
    }
    const size_t arity = function == "min" || function == "max" ? 2 : function == "pow2" || function == "finite" ? 1 : 0;
    if (arity == 0) fail_at(at, "no function " + std::string(function) + " (there are size, min, max, pow2, finite)");
    node->kind = Node::Kind::call;
    node->op = function == "min" ? "min" : function == "max" ? "max" : function == "pow2" ? "pow2" : "finite";
    for (size_t i = 0; i < arity; ++i) {
      if (i > 0 && !take(",")) fail(std::string(function) + " takes " + std::to_string(arity) + " arguments");
      node->operands.push_back(parse_or());
    }
    if (!take(")")) fail("')' is missing");
    return node;
  }

  std::string_view text_;
  Names& names_;
  size_t pos_ = 0;
};

std::optional<long double> evaluate_node(const Node& n, const Environment& env) {
  switch (n.kind) {
    case Node::Kind::number:
      return n.number;
    case Node::Kind::symbol:
      return env.symbols[static_cast<size_t>(n.index)];
    case Node::Kind::scalar:
      return env.scalars[static_cast<size_t>(n.index)];
    case Node::Kind::size_of: {
      const int64_t size = env.dtype_sizes[static_cast<size_t>(n.index)];
      if (size == 0) return std::nullopt;
      return static_cast<long double>(size);
    }
    case Node::Kind::negate:
    case Node::Kind::logical_not: {
      const auto v = evaluate_node(*n.operands[0], env);
      if (!v) return std::nullopt;
      return n.kind == Node::Kind::negate ? -*v : static_cast<long double>(*v == 0);
    }
    case Node::Kind::call: {
      const auto a = evaluate_node(*n.operands[0], env);
      if (!a) return std::nullopt;
      if (n.op == "finite") return static_cast<long double>(std::isfinite(*a));
      if (n.op == "pow2") {
        const bool integral = std::isfinite(*a) && *a >= 1 && std::floor(*a) == *a;
        if (!integral) return 0.0L;
        const auto v = static_cast<uint64_t>(*a);
        return static_cast<long double>((v & (v - 1)) == 0);
      }
      const auto b = evaluate_node(*n.operands[1], env);
      if (!b) return std::nullopt;
      return n.op == "min" ? std::min(*a, *b) : std::max(*a, *b);
    }
    case Node::Kind::binary:
      break;
  }
  const auto a = evaluate_node(*n.operands[0], env);
  if (n.op == "&&" && a && *a == 0) return 0.0L;  // short-circuit: the rest may read unbound symbols
  if (n.op == "||" && a && *a != 0) return 1.0L;
  const auto b = evaluate_node(*n.operands[1], env);
  if (!a || !b) return std::nullopt;
  const std::string_view op = n.op;
  if (op == "+") return *a + *b;
  if (op == "-") return *a - *b;
  if (op == "*") return *a * *b;
  if (op == "/") return *b == 0 ? std::nullopt : std::optional<long double>(*a / *b);
  if (op == "%") return *b == 0 ? std::nullopt : std::optional<long double>(std::fmod(*a, *b));
  if (op == "==") return static_cast<long double>(*a == *b);
  if (op == "!=") return static_cast<long double>(*a != *b);
  if (op == "<") return static_cast<long double>(*a < *b);
  if (op == "<=") return static_cast<long double>(*a <= *b);
  if (op == ">") return static_cast<long double>(*a > *b);
  if (op == ">=") return static_cast<long double>(*a >= *b);
  if (op == "&&" || op == "||") return static_cast<long double>(*b != 0);
  return std::nullopt;
}

void collect_symbols(const Node& n, std::vector<int>& out) {
  if (n.kind == Node::Kind::symbol && std::find(out.begin(), out.end(), n.index) == out.end()) out.push_back(n.index);
  for (const NodePtr& operand : n.operands) collect_symbols(*operand, out);
}

bool is_integer_number(const Node& n, int64_t& value) {
  if (n.kind != Node::Kind::number || std::floor(n.number) != n.number) return false;
  value = static_cast<int64_t>(n.number);
  return true;
}

}  // namespace

Expression Expression::parse(std::string_view text, Names& names) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  Expression e;
  e.root_ = Parser(text, names).parse_all();
  e.text_ = std::string(text);
  return e;
}

std::optional<long double> Expression::evaluate(const Environment& env) const { return evaluate_node(*root_, env); }

std::optional<int> Expression::lone_symbol() const {
  if (root_->kind != Node::Kind::symbol) return std::nullopt;
  return root_->index;
}

std::optional<std::pair<int64_t, int>> Expression::scaled_symbol() const {
  if (root_->kind != Node::Kind::binary || root_->op != "*") return std::nullopt;
  const Node& a = *root_->operands[0];
  const Node& b = *root_->operands[1];
  int64_t k = 0;
  if (is_integer_number(a, k) && b.kind == Node::Kind::symbol && k > 1) return std::make_pair(k, b.index);
  if (is_integer_number(b, k) && a.kind == Node::Kind::symbol && k > 1) return std::make_pair(k, a.index);
  return std::nullopt;
}

std::vector<int> Expression::symbols() const {
  std::vector<int> out;
  collect_symbols(*root_, out);
  return out;
}

ParsedType parse_type(std::string_view text, Names& names) {
  const size_t open = text.find('[');
  if (open == std::string_view::npos || text.empty() || text.back() != ']')
    throw std::invalid_argument("'" + std::string(text) + "' is not a type like E[M, N]");
  ParsedType type;
  type.dtype = text.substr(0, open);
  while (!type.dtype.empty() && type.dtype.back() == ' ') type.dtype.remove_suffix(1);
  if (type.dtype.empty()) throw std::invalid_argument("'" + std::string(text) + "' has no dtype before '['");
  std::string_view dims = text.substr(open + 1, text.size() - open - 2);
  size_t depth = 0, start = 0;
  bool any = dims.find_first_not_of(' ') != std::string_view::npos;
  for (size_t i = 0; any && i <= dims.size(); ++i) {
    if (i < dims.size() && dims[i] == '(') ++depth;
    if (i < dims.size() && dims[i] == ')') --depth;
    if (i == dims.size() || (dims[i] == ',' && depth == 0)) {
      type.dims.push_back(Expression::parse(dims.substr(start, i - start), names));
      start = i + 1;
    }
  }
  return type;
}

std::string format_value(long double value) {
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e18L)
    return std::to_string(static_cast<int64_t>(value));
  char text[64];
  std::snprintf(text, sizeof text, "%.9Lg", value);
  return text;
}

}  // namespace cutile::op::detail
