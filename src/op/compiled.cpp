#include "compiled.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace cutile::op::detail {
namespace {

ParamKind param_kind(const ScalarSpec& s) {
  switch (s.type) {
    case ScalarType::real: return ParamKind::real;
    case ScalarType::integer: return ParamKind::integer;
    case ScalarType::flag: return ParamKind::flag;
    case ScalarType::choice: return ParamKind::choice;
  }
  return ParamKind::real;
}

std::string_view param_kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::tensor: return "const AnyTensor&";
    case ParamKind::optional_tensor: return "const AnyTensor*";
    case ParamKind::tensor_list: return "std::span<const AnyTensor* const>";
    case ParamKind::real: return "double";
    case ParamKind::integer: return "int64_t";
    case ParamKind::flag: return "bool";
    case ParamKind::choice: return "an enum";
  }
  return "?";
}

// The lists' kinds (by length symbol), which symbols their elements bind, and which conditions read them.
template <class Report>
void compile_lists(const OpSpec& spec, CompiledSpec& c, Report& problem) {
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    if (!t.is_list()) continue;
    const std::string name(t.name);
    std::optional<int> length;
    try {
      length = Expression::parse(t.list_length, c.names).lone_symbol();
    } catch (const std::invalid_argument&) {
    }
    if (!length) {
      problem("tensor " + name + ": listed(\"" + std::string(t.list_length) + "\") names no symbol for its length");
      continue;
    }
    if (t.role == Role::inout) problem("tensor " + name + ": a list is an input or an output, not updated in place");
    if (t.view != View::exact || t.optional || !t.like.empty())
      problem("tensor " + name + ": a list has an exact view, is never absent and is allocated like no input");
    for (const TensorSpec& other : spec.tensors)
      if (other.name == name + "_count") problem("the name " + name + "_count is the C ABI's length of the list " + name);
    for (const ScalarSpec& other : spec.scalars)
      if (other.name == name + "_count") problem("the name " + name + "_count is the C ABI's length of the list " + name);
    const auto kind = std::find(c.lists.begin(), c.lists.end(), *length);
    c.tensors[i].list = static_cast<int>(kind - c.lists.begin());
    if (kind == c.lists.end()) c.lists.push_back(*length);
  }
  const auto& symbol_names = c.names.symbols;
  std::vector<int> symbol_list(symbol_names.size(), -1);  // per symbol: the kind whose elements bind it
  auto is_length = [&](int s) { return std::find(c.lists.begin(), c.lists.end(), s) != c.lists.end(); };
  auto length_name = [&](int kind) { return symbol_names[static_cast<size_t>(c.lists[static_cast<size_t>(kind)])]; };
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const int kind = c.tensors[i].list;
    if (kind < 0) continue;
    for (const Expression& dim : c.tensors[i].dims)
      for (const int s : dim.symbols()) {
        int& owner = symbol_list[static_cast<size_t>(s)];
        if (is_length(s) || owner == kind) continue;
        if (owner >= 0)
          problem("symbol " + symbol_names[static_cast<size_t>(s)] + " is bound by the elements of lists of lengths " +
                  length_name(owner) + " and " + length_name(kind));
        else
          owner = kind;
      }
  }
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    if (c.tensors[i].list >= 0) continue;
    for (const Expression& dim : c.tensors[i].dims)
      for (const int s : dim.symbols())
        if (const int owner = symbol_list[static_cast<size_t>(s)]; owner >= 0)
          problem("tensor " + std::string(spec.tensors[i].name) + ": " + symbol_names[static_cast<size_t>(s)] +
                  " is bound per element of the lists of length " + length_name(owner) +
                  ", so a tensor that is no list cannot use it (a symbol is per element or shared, not both)");
  }
  for (size_t kind = 0; kind < c.lists.size(); ++kind) {
    bool given = false;
    for (size_t i = 0; i < spec.tensors.size(); ++i)
      given = given || (c.tensors[i].list == static_cast<int>(kind) && spec.tensors[i].role != Role::out);
    if (!given)
      problem("the lists of length " + length_name(static_cast<int>(kind)) +
              " are all outputs: an input list must give their length");
  }
  // A condition reads the per-element symbols of one kind of list at most: it holds for each element.
  auto list_of = [&](const std::optional<Expression>& e) {
    int found = -1;
    if (!e) return found;
    for (const int s : e->symbols()) {
      const int owner = symbol_list[static_cast<size_t>(s)];
      if (owner >= 0 && found >= 0 && owner != found)
        problem("'" + e->text() + "' reads the per-element symbols of lists of lengths " + length_name(found) + " and " +
                length_name(owner));
      else if (owner >= 0)
        found = owner;
    }
    return found;
  };
  for (const auto& rule : c.rules) c.rule_list.push_back(list_of(rule));
  for (const auto& valid : c.valid) c.valid_list.push_back(list_of(valid));
}

CompiledSpec compile(const OpSpec& spec) {
  CompiledSpec c;
  auto problem = [&](std::string text) { c.problems.push_back(std::string(spec.name) + ": " + std::move(text)); };
  for (const DtypeVar& v : spec.dtypes) c.names.dtype_vars.push_back(v.name);
  for (const ScalarSpec& s : spec.scalars) c.names.scalars.push_back(s.name);
  for (const TensorSpec& t : spec.tensors) {
    CompiledTensor ct;
    try {
      ParsedType type = parse_type(t.type, c.names);
      ct.dims = std::move(type.dims);
      const auto var = std::find(c.names.dtype_vars.begin(), c.names.dtype_vars.end(), type.dtype);
      if (var != c.names.dtype_vars.end()) {
        ct.dtype_var = static_cast<int>(var - c.names.dtype_vars.begin());
      } else if (const auto fixed = parse_dtype(type.dtype)) {
        ct.fixed = *fixed;
      } else {
        problem("tensor " + std::string(t.name) + ": '" + std::string(type.dtype) +
                "' is neither a dtype variable of the op nor a dtype");
      }
    } catch (const std::invalid_argument& e) {
      problem("tensor " + std::string(t.name) + ": " + e.what());
    }
    if (t.view == View::rows && ct.dims.size() != 2) problem("tensor " + std::string(t.name) + ": a rows view needs rank 2");
    if (t.view == View::flat && ct.dims.size() != 1) problem("tensor " + std::string(t.name) + ": a flat view needs rank 1");
    if (t.view == View::leading_ones && t.role == Role::out)
      problem("tensor " + std::string(t.name) + ": a leading_ones view is for tensors that are read");
    if (!t.transposed_by.empty()) {
      const auto flag = std::find_if(spec.scalars.begin(), spec.scalars.end(),
                                     [&](const ScalarSpec& s) { return s.name == t.transposed_by; });
      if (flag == spec.scalars.end() || flag->type != ScalarType::flag)
        problem("tensor " + std::string(t.name) + ": transposed_when names no flag scalar");
      else if (t.role != Role::in || ct.dims.size() < 2 || t.view != View::exact)
        problem("tensor " + std::string(t.name) + ": only an input of rank 2 or more with an exact view is transposed");
      else
        ct.transposed_by = static_cast<int>(flag - spec.scalars.begin());
    }
    c.tensors.push_back(std::move(ct));
  }
  for (const Requirement& r : spec.rules) {
    try {
      c.rules.push_back(Expression::parse(r.condition, c.names));
    } catch (const std::invalid_argument& e) {
      c.rules.emplace_back();
      problem(std::string("rule ") + e.what());
    }
  }
  for (const ScalarSpec& s : spec.scalars) {
    if (s.type == ScalarType::choice && (!s.choices || s.choices->values.empty()))
      problem("scalar " + std::string(s.name) + ": a choice needs a ChoiceSet");
    else if (s.type == ScalarType::choice && !s.default_value)
      problem("scalar " + std::string(s.name) + ": its default is none of its choices");
    if (s.valid.empty()) {
      c.valid.emplace_back();
      continue;
    }
    try {
      c.valid.push_back(Expression::parse(s.valid, c.names));
    } catch (const std::invalid_argument& e) {
      c.valid.emplace_back();
      problem("scalar " + std::string(s.name) + ": " + e.what());
    }
  }
  // Names: no tensor or scalar twice; `like` names an input of the same type.
  std::vector<std::string_view> names;
  for (const TensorSpec& t : spec.tensors) names.push_back(t.name);
  for (const ScalarSpec& s : spec.scalars) names.push_back(s.name);
  for (size_t i = 0; i < names.size(); ++i)
    if (std::count(names.begin(), names.end(), names[i]) > 1 && std::find(names.begin(), names.end(), names[i]) == names.begin() + i)
      problem("the name " + std::string(names[i]) + " is used twice");
  for (const TensorSpec& t : spec.tensors) {
    if (t.like.empty()) continue;
    const auto source = std::find_if(spec.tensors.begin(), spec.tensors.end(),
                                     [&](const TensorSpec& s) { return s.name == t.like; });
    if (t.role != Role::out || source == spec.tensors.end() || source->role == Role::out || source->type != t.type ||
        source->is_list())
      problem("tensor " + std::string(t.name) + ": like " + std::string(t.like) +
              " must be an output like an input of the same type, not a list");
  }
  compile_lists(spec, c, problem);
  for (const Tunable& t : spec.tuning) {
    const bool repeated = std::count_if(spec.tuning.begin(), spec.tuning.end(),
                                        [&](const Tunable& u) { return u.name == t.name; }) > 1;
    if (t.name.empty() || t.candidates.empty() || repeated)
      problem("tunable '" + std::string(t.name) + "': a tunable needs a name of its own and candidates");
  }
  // The launcher takes the tensors, then the scalars, in order.
  std::vector<ParamKind> expected;
  for (const TensorSpec& t : spec.tensors)
    expected.push_back(t.is_list() ? ParamKind::tensor_list : t.optional ? ParamKind::optional_tensor : ParamKind::tensor);
  for (const ScalarSpec& s : spec.scalars) expected.push_back(param_kind(s));
  if (!spec.launch.function) {
    problem("no launcher");
  } else if (spec.launch.params != expected) {
    std::string want, got;
    for (ParamKind k : expected) want += (want.empty() ? "" : ", ") + std::string(param_kind_name(k));
    for (ParamKind k : spec.launch.params) got += (got.empty() ? "" : ", ") + std::string(param_kind_name(k));
    problem("the launcher takes (Target&, " + got + "); the description needs (Target&, " + want + ")");
  }
  return c;
}

}  // namespace

const CompiledSpec& compiled(const OpSpec& spec) {
  static std::mutex mutex;
  static std::map<const OpSpec*, std::unique_ptr<CompiledSpec>> cache;
  std::lock_guard lock(mutex);
  std::unique_ptr<CompiledSpec>& entry = cache[&spec];
  if (!entry) entry = std::make_unique<CompiledSpec>(compile(spec));
  return *entry;
}

}  // namespace cutile::op::detail
