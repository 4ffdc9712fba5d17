#include "cutile/op/configuration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "compiled.hpp"

namespace cutile::op {
namespace {

std::map<std::string, std::string, std::less<>> parse_pairs(std::string_view config) {
  std::map<std::string, std::string, std::less<>> pairs;
  std::istringstream words{std::string(config)};
  std::string word;
  while (words >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
      throw UserError("configuration '" + std::string(config) + "': '" + word + "' is not NAME=VALUE");
    if (!pairs.emplace(word.substr(0, eq), word.substr(eq + 1)).second)
      throw UserError("configuration '" + std::string(config) + "': " + word.substr(0, eq) + " is given twice");
  }
  return pairs;
}

double number(const std::string& name, const std::string& text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size()) throw UserError("configuration: " + name + "=" + text + " is not a number");
  return value;
}

}  // namespace

Configured configure(const OpSpec& spec, std::string_view config) {
  const detail::CompiledSpec& c = detail::compiled(spec);
  if (!c.problems.empty()) throw InternalError("the description of " + std::string(spec.name) + " is unsound: " + c.problems.front());
  auto pairs = parse_pairs(config);
  auto take = [&](std::string_view name) -> std::optional<std::string> {
    const auto it = pairs.find(name);
    if (it == pairs.end()) return std::nullopt;
    std::string value = it->second;
    pairs.erase(it);
    return value;
  };
  std::vector<std::optional<long double>> symbols(c.names.symbols.size());
  for (size_t i = 0; i < symbols.size(); ++i)
    if (auto v = take(c.names.symbols[i])) symbols[i] = number(c.names.symbols[i], *v);
  std::vector<Dtype> dtypes;
  std::vector<int64_t> sizes;
  for (const DtypeVar& var : spec.dtypes) {
    const auto v = take(var.name);
    if (!v) throw UserError("configuration '" + std::string(config) + "' gives no dtype for " + std::string(var.name));
    const auto dtype = parse_dtype(*v);
    if (!dtype) throw UserError("configuration: " + std::string(var.name) + "=" + *v + " is not a dtype");
    dtypes.push_back(*dtype);
    sizes.push_back(dtype_size(*dtype));
  }
  Configured out;
  std::vector<long double> scalar_values;
  for (const ScalarSpec& s : spec.scalars) {
    const auto v = take(s.name);
    if (!v && !s.default_value)
      throw UserError("configuration '" + std::string(config) + "' gives no value for " + std::string(s.name));
    if (s.type == ScalarType::choice && v) {
      const auto it = std::find(s.choices->values.begin(), s.choices->values.end(), *v);
      if (it == s.choices->values.end()) throw UserError("configuration: " + *v + " is no choice of " + std::string(s.name));
      out.scalars.emplace_back(static_cast<int64_t>(it - s.choices->values.begin()));
    } else {
      const double value = v ? number(std::string(s.name), *v) : *s.default_value;
      if (s.type == ScalarType::real)
        out.scalars.emplace_back(value);
      else
        out.scalars.emplace_back(static_cast<int64_t>(value));
    }
    scalar_values.push_back(s.type == ScalarType::real ? out.scalars.back().real : out.scalars.back().integer);
  }
  if (!pairs.empty())
    throw UserError("configuration '" + std::string(config) + "': " + pairs.begin()->first + " is no symbol, dtype or "
                    "scalar of " + std::string(spec.name));
  const detail::Environment env{symbols, scalar_values, sizes};
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const detail::CompiledTensor& t = c.tensors[i];
    size_t count = 1;
    if (t.list >= 0) {
      const auto s = static_cast<size_t>(c.lists[static_cast<size_t>(t.list)]);
      const auto length = symbols[s];
      if (!length || *length < 1 || std::floor(*length) != *length)
        throw UserError("configuration '" + std::string(config) + "': the list " + std::string(spec.tensors[i].name) +
                        " needs its length " + c.names.symbols[s] + ", at least 1");
      count = static_cast<size_t>(*length);
    }
    std::vector<int64_t> shape;
    for (const detail::Expression& d : t.dims) {
      const auto extent = d.evaluate(env);
      if (!extent || *extent < 0 || std::floor(*extent) != *extent)
        throw UserError("configuration '" + std::string(config) + "': " + std::string(spec.tensors[i].name) +
                        "'s dim " + d.text() + " is not given by it");
      shape.push_back(static_cast<int64_t>(*extent));
    }
    if (t.transposed_by >= 0 && scalar_values[static_cast<size_t>(t.transposed_by)] != 0)
      std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);  // stored transposed
    const Dtype dtype = t.dtype_var >= 0 ? dtypes[static_cast<size_t>(t.dtype_var)] : t.fixed;
    const auto strides = row_major_strides(shape);
    std::vector<AnyTensor>& tensors = out.tensors.emplace_back();
    for (size_t g = 0; g < count; ++g)  // distinct tensors, as a call's elements are
      tensors.push_back(AnyTensor::meta(element_type(dtype), dtype_size(dtype), shape, strides));
  }
  return out;
}

std::vector<std::string> expand(std::string_view config) {
  std::vector<std::string> out = {""};
  std::istringstream words{std::string(config)};
  std::string word;
  while (words >> word) {
    const size_t open = word.find("={");
    std::vector<std::string> values;
    if (open == std::string::npos) {
      values.push_back(word);
    } else {
      if (word.back() != '}') throw UserError("configuration: '" + word + "' has an unclosed set");
      std::istringstream items(word.substr(open + 2, word.size() - open - 3));
      std::string item;
      while (std::getline(items, item, ',')) values.push_back(word.substr(0, open + 1) + item);
      if (values.empty()) throw UserError("configuration: '" + word + "' is an empty set");
    }
    std::vector<std::string> next;
    for (const std::string& prefix : out)
      for (const std::string& v : values) next.push_back(prefix.empty() ? v : prefix + " " + v);
    out = std::move(next);
  }
  return out;
}

void run_at(const OpSpec& spec, std::string_view config, Target& target) {
  const Configured args = configure(spec, config);
  const ElementTable tensors(args.tensors);
  run(spec, target, tensors.elements(), args.scalars);
}

}  // namespace cutile::op
