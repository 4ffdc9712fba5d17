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
    case ParamKind::real: return "double";
    case ParamKind::integer: return "int64_t";
    case ParamKind::flag: return "bool";
    case ParamKind::choice: return "an enum";
  }
  return "?";
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
    if (t.role != Role::out || source == spec.tensors.end() || source->role == Role::out || source->type != t.type)
      problem("tensor " + std::string(t.name) + ": like " + std::string(t.like) +
              " must be an output like an input of the same type");
  }
  for (const Tunable& t : spec.tuning) {
    const bool repeated = std::count_if(spec.tuning.begin(), spec.tuning.end(),
                                        [&](const Tunable& u) { return u.name == t.name; }) > 1;
    if (t.name.empty() || t.candidates.empty() || repeated)
      problem("tunable '" + std::string(t.name) + "': a tunable needs a name of its own and candidates");
  }
  // The launcher takes the tensors, then the scalars, in order.
  std::vector<ParamKind> expected;
  for (const TensorSpec& t : spec.tensors) expected.push_back(t.optional ? ParamKind::optional_tensor : ParamKind::tensor);
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
