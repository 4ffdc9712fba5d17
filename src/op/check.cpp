// The checks of an op's description, shared by op::run and the C ABI.
#include <algorithm>
#include <climits>
#include <cmath>

#include "compiled.hpp"
#include "cutile/host/layout.hpp"
#include "cutile/host/overlap.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/run.hpp"
#include "cutile/op/tuning.hpp"

namespace cutile::op {
namespace {

using detail::CompiledSpec;
using detail::format_value;

constexpr int kMaxSymbols = 32;  // per op; more is a description no one can read

// Where a symbol's value came from: a dim of a tensor or of a list's element, or a list's length.
struct Source {
  std::string_view tensor;  // empty: unbound
  int64_t element = -1;     // its index in a list; -1 for a single tensor
  int64_t dim = -1;         // -1: the list's length

  // "x's dim 1", "xs[2]'s dim 0", "xs's length": made only for a message, so that a passing check builds no
  // strings
  std::string text() const {
    const std::string name = std::string(tensor) + (element >= 0 ? "[" + std::to_string(element) + "]" : "");
    return dim < 0 ? name + "'s length" : name + "'s dim " + std::to_string(dim);
  }
};

// Symbol values and where they came from: the shared ones, or those of one element of a kind of list.
struct Scope {
  std::vector<std::optional<long double>> symbols;
  std::vector<Source> sources;
};

// The state of one call's checks: the dtypes and symbols bound so far.
struct Bindings {
  std::vector<int64_t> dtype_sizes;  // per dtype variable; 0 unbound
  std::vector<Dtype> dtypes;
  Scope shared;                            // the shared symbols and the lists' lengths
  std::vector<std::vector<Scope>> elements;  // per kind of list, per element: the shared scope and its own
  std::vector<long double> scalars;
};

bool written(Role role) { return role != Role::in; }

detail::Environment environment(const Bindings& b, const Scope& scope) { return {scope.symbols, b.scalars, b.dtype_sizes}; }

// The scopes a condition is evaluated in: each element of the kind of list whose symbols it reads, else
// the shared one.
std::span<const Scope> scopes(const Bindings& b, int list) {
  return list >= 0 ? std::span<const Scope>(b.elements[static_cast<size_t>(list)]) : std::span<const Scope>(&b.shared, 1);
}

// "M = 4 from x's dim 0, N = 8 from ws[1]'s dim 1" for the bound symbols `e` reads.
std::string values_of(const detail::Expression& e, const CompiledSpec& c, const Scope& scope) {
  std::string values;
  for (int s : e.symbols())
    if (scope.symbols[static_cast<size_t>(s)])
      values += (values.empty() ? "" : ", ") + c.names.symbols[static_cast<size_t>(s)] + " = " +
                format_value(*scope.symbols[static_cast<size_t>(s)]) + " from " + scope.sources[static_cast<size_t>(s)].text();
  return values;
}

void check_internal(const OpSpec& spec, const CompiledSpec& c) {
  if (!c.problems.empty()) throw InternalError("the description of " + std::string(spec.name) + " is unsound: " + c.problems.front());
}

// Whether tensor i's facts are checked: every tensor with `outputs`, else the inputs and in-place ones.
bool considered(const OpSpec& spec, size_t i, bool outputs) { return outputs || spec.tensors[i].role != Role::out; }

// Inputs (and in-place tensors) first, so that a message names an input before an output.
void check_presence(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors, bool outputs) {
  if (tensors.size() != spec.tensors.size())
    throw InternalError(std::string(spec.name) + " takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                        std::to_string(tensors.size()));
  for (const bool output : {false, true})
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorSpec& t = spec.tensors[i];
      if ((t.role == Role::out) != output) continue;
      if (!t.is_list()) {
        if (tensors[i].size() != 1)
          throw InternalError(std::string(spec.name) + ": " + std::string(t.name) + " is one tensor, got " +
                              std::to_string(tensors[i].size()));
        if (!tensors[i][0] && !t.optional && considered(spec, i, outputs))
          throw OpError(Problem::invalid_argument, std::string(t.name) + " is required");
        continue;
      }
      if (!considered(spec, i, outputs)) continue;
      if (tensors[i].empty())
        throw OpError(Problem::invalid_argument, std::string(t.name) + " is an empty list: a list holds at least one tensor");
      for (size_t g = 0; g < tensors[i].size(); ++g)
        if (!tensors[i][g])
          throw OpError(Problem::invalid_argument, std::string(t.name) + "[" + std::to_string(g) + "] is required");
    }
}

// The present tensors' facts, inputs (and in-place ones) first, so that they name the dtypes and ranks and
// the outputs (when checked) are held to them.
std::vector<std::pair<size_t, const TensorFacts*>> inputs_first(const OpSpec& spec,
                                                                std::span<const Elements<TensorFacts>> tensors,
                                                                bool outputs) {
  std::vector<std::pair<size_t, const TensorFacts*>> order;
  order.reserve(tensors.size());
  for (const bool output : {false, true}) {
    if (output && !outputs) break;
    for (size_t i = 0; i < tensors.size(); ++i)
      if ((spec.tensors[i].role == Role::out) == output)
        for (const TensorFacts* t : tensors[i])
          if (t) order.emplace_back(i, t);
  }
  return order;
}

void check_dtypes(const OpSpec& spec, const CompiledSpec& c, std::span<const Elements<TensorFacts>> tensors,
                  Bindings& b, bool outputs) {
  b.dtype_sizes.assign(spec.dtypes.size(), 0);
  b.dtypes.assign(spec.dtypes.size(), Dtype::f32);
  std::vector<const TensorFacts*> binder(spec.dtypes.size(), nullptr);
  auto supported = [](std::span<const Dtype> set) {
    std::string list;
    for (Dtype d : set) list += (list.empty() ? "" : ", ") + std::string(dtype_name(d));
    return list;
  };
  const auto order = inputs_first(spec, tensors, outputs);
  // Every tensor's dtype is one the op supports, then each variable's tensors share theirs.
  for (const auto& [i, t] : order) {
    const detail::CompiledTensor& ct = c.tensors[i];
    const std::span<const Dtype> set = ct.dtype_var >= 0 ? std::span<const Dtype>(spec.dtypes[static_cast<size_t>(ct.dtype_var)].dtypes)
                                                         : std::span<const Dtype>(&ct.fixed, 1);
    if (!t->dtype || std::find(set.begin(), set.end(), *t->dtype) == set.end())
      throw OpError(Problem::unsupported_dtype, t->describe() + ": the op supports " + supported(set));
  }
  for (const auto& [i, t] : order) {
    const int var = c.tensors[i].dtype_var;
    if (var < 0) continue;
    const auto v = static_cast<size_t>(var);
    if (!binder[v]) {
      b.dtypes[v] = *t->dtype;
      b.dtype_sizes[v] = dtype_size(b.dtypes[v]);
      binder[v] = t;
    } else if (*t->dtype != b.dtypes[v]) {
      throw OpError(Problem::dtype_mismatch, t->describe() + " and " + binder[v]->describe() + " must have the same dtype");
    }
  }
}

void check_ranks(const OpSpec& spec, const CompiledSpec& c, std::span<const Elements<TensorFacts>> tensors, bool outputs) {
  for (const auto& [i, t] : inputs_first(spec, tensors, outputs)) {
    if (t->shape.size() != c.tensors[i].dims.size())
      throw OpError(Problem::rank_mismatch, t->describe() + ": expected " + std::to_string(c.tensors[i].dims.size()) +
                                                " dims (" + std::string(spec.tensors[i].type) + "), got " +
                                                std::to_string(t->shape.size()));
  }
}

// Binds the lists' lengths, then the shared symbols from the single inputs in order, then per element of
// each kind of list its symbols from the elements of that index; and holds every dim (of the outputs too,
// when given) to them.
void check_shapes(const OpSpec& spec, const CompiledSpec& c, std::span<const Elements<TensorFacts>> tensors, Bindings& b,
                  bool outputs) {
  if (c.names.symbols.size() > kMaxSymbols) throw InternalError(std::string(spec.name) + " has too many shape symbols");
  b.shared.symbols.assign(c.names.symbols.size(), std::nullopt);
  b.shared.sources.assign(c.names.symbols.size(), {});
  // The lengths, inputs first: lists of one length symbol have one length.
  for (const bool output : {false, true}) {
    if (output && !outputs) break;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const int list = c.tensors[i].list;
      if (list < 0 || (spec.tensors[i].role == Role::out) != output) continue;
      const auto s = static_cast<size_t>(c.lists[static_cast<size_t>(list)]);
      const auto length = static_cast<long double>(tensors[i].size());
      if (!b.shared.symbols[s]) {
        b.shared.symbols[s] = length;
        b.shared.sources[s] = {spec.tensors[i].name};
      } else if (*b.shared.symbols[s] != length) {
        throw OpError(Problem::shape_mismatch,
                      std::string(spec.tensors[i].name) + " has length " + std::to_string(tensors[i].size()) + ", " +
                          std::string(b.shared.sources[s].tensor) + " has length " + format_value(*b.shared.symbols[s]) +
                          ": the lists of length " + c.names.symbols[s] + " have one length");
      }
    }
  }
  auto visit = [&](size_t i, const TensorFacts& t, Scope& scope) {
    const detail::CompiledTensor& ct = c.tensors[i];
    // The stored dim of each dim of the type: the last two swapped for a tensor given transposed.
    const bool transposed = ct.transposed_by >= 0 && b.scalars[static_cast<size_t>(ct.transposed_by)] != 0;
    const size_t rank = ct.dims.size();
    auto stored = [&](size_t d) { return transposed && d + 2 >= rank ? (d + 1 == rank ? rank - 2 : rank - 1) : d; };
    auto named = [&] {
      return t.describe() + (transposed ? " (given transposed: " + std::string(spec.scalars[static_cast<size_t>(ct.transposed_by)].name) + ")" : "");
    };
    // First pass: dims that bind a symbol; second: every dim is what its expression says.
    for (size_t d = 0; d < ct.dims.size(); ++d) {
      const auto extent = static_cast<long double>(t.shape[stored(d)]);
      const Source source{t.name, t.element, static_cast<int64_t>(stored(d))};
      if (const auto s = ct.dims[d].lone_symbol(); s && !scope.symbols[static_cast<size_t>(*s)]) {
        scope.symbols[static_cast<size_t>(*s)] = extent;
        scope.sources[static_cast<size_t>(*s)] = source;
      } else if (const auto k = ct.dims[d].scaled_symbol(); k && !scope.symbols[static_cast<size_t>(k->second)]) {
        if (t.shape[stored(d)] % k->first != 0)
          throw OpError(Problem::shape_mismatch, named() + ": dim " + std::to_string(stored(d)) + " is " +
                                                     std::to_string(t.shape[stored(d)]) + ", which must be " + ct.dims[d].text() +
                                                     " (" + std::string(spec.tensors[i].type) + "): a multiple of " +
                                                     std::to_string(k->first));
        scope.symbols[static_cast<size_t>(k->second)] = extent / static_cast<long double>(k->first);
        scope.sources[static_cast<size_t>(k->second)] = source;
      }
    }
    for (size_t d = 0; d < ct.dims.size(); ++d) {
      const auto want = ct.dims[d].evaluate(environment(b, scope));
      if (!want) continue;  // reads a symbol no tensor binds: the rules or the launcher hold it
      if (*want == static_cast<long double>(t.shape[stored(d)])) continue;
      std::string from;
      for (int s : ct.dims[d].symbols())
        if (!scope.sources[static_cast<size_t>(s)].tensor.empty())
          from += (from.empty() ? "" : ", ") + c.names.symbols[static_cast<size_t>(s)] + " from " +
                  scope.sources[static_cast<size_t>(s)].text();
      throw OpError(Problem::shape_mismatch, named() + ": dim " + std::to_string(stored(d)) + " must be " +
                                                 ct.dims[d].text() + " = " + format_value(*want) +
                                                 (from.empty() ? "" : " (" + from + ")") + ", got " +
                                                 std::to_string(t.shape[stored(d)]));
    }
  };
  // Inputs, then in-place tensors, then outputs (when given).
  const Role roles[] = {Role::in, Role::inout, Role::out};
  for (const Role role : roles) {
    if (role == Role::out && !outputs) break;
    for (size_t i = 0; i < tensors.size(); ++i)
      if (spec.tensors[i].role == role && c.tensors[i].list < 0 && tensors[i][0]) visit(i, *tensors[i][0], b.shared);
  }
  b.elements.assign(c.lists.size(), {});
  for (size_t list = 0; list < c.lists.size(); ++list) {
    const auto length = b.shared.symbols[static_cast<size_t>(c.lists[list])];
    b.elements[list].assign(length ? static_cast<size_t>(*length) : 0, b.shared);
    for (size_t g = 0; g < b.elements[list].size(); ++g)
      for (const Role role : roles) {
        if (role == Role::out && !outputs) break;
        for (size_t i = 0; i < tensors.size(); ++i)
          if (spec.tensors[i].role == role && c.tensors[i].list == static_cast<int>(list))
            visit(i, *tensors[i][g], b.elements[list][g]);
      }
  }
}

// Each scalar as its type takes it (an integral real for an integer, 0 or 1 for a flag, an index of its
// choices); before the shapes, which a flag may transpose.
void convert_scalars(const OpSpec& spec, std::span<Scalar> scalars, Bindings& b) {
  if (scalars.size() != spec.scalars.size())
    throw InternalError(std::string(spec.name) + " takes " + std::to_string(spec.scalars.size()) + " scalars, got " +
                        std::to_string(scalars.size()));
  b.scalars.assign(scalars.size(), 0);
  for (size_t i = 0; i < scalars.size(); ++i) {
    const ScalarSpec& s = spec.scalars[i];
    Scalar& v = scalars[i];
    const std::string name(s.name);
    if (s.type == ScalarType::real) {
      if (v.kind == Scalar::Kind::integer) v = Scalar(static_cast<double>(v.integer));
      b.scalars[i] = v.real;
      continue;
    }
    if (v.kind == Scalar::Kind::real) {
      if (!(std::floor(v.real) == v.real && std::fabs(v.real) < 9.2e18))
        throw OpError(Problem::invalid_argument, name + " is " + format_value(v.real) + "; it must be an integer");
      v = Scalar(static_cast<int64_t>(v.real));
    }
    b.scalars[i] = static_cast<long double>(v.integer);
    if (s.type == ScalarType::flag && v.integer != 0 && v.integer != 1)
      throw OpError(Problem::invalid_argument, name + " is " + std::to_string(v.integer) + "; a flag is 0 or 1");
    if (s.type == ScalarType::choice && (v.integer < 0 || v.integer >= static_cast<int64_t>(s.choices->values.size()))) {
      std::string names;
      for (size_t k = 0; k < s.choices->values.size(); ++k)
        names += (k ? ", " : "") + std::to_string(k) + " " + std::string(s.choices->values[k]);
      throw OpError(Problem::invalid_argument, name + " is " + std::to_string(v.integer) + "; expected a cutile_cpp_" +
                                                   std::string(s.choices->name) + " (" + names + ")");
    }
  }
}

// The scalars' conditions, which may read the shape symbols (per element, those of a list's elements).
void check_scalar_conditions(const OpSpec& spec, const CompiledSpec& c, Bindings& b) {
  for (size_t i = 0; i < spec.scalars.size(); ++i) {
    if (!c.valid[i]) continue;
    for (const Scope& scope : scopes(b, c.valid_list[i])) {
      const auto ok = c.valid[i]->evaluate(environment(b, scope));
      if (ok && *ok != 0) continue;
      const std::string values = c.valid_list[i] >= 0 ? values_of(*c.valid[i], c, scope) : "";
      throw OpError(Problem::invalid_argument, std::string(spec.scalars[i].name) + " is " + format_value(b.scalars[i]) +
                                                   "; it must satisfy " + c.valid[i]->text() +
                                                   (values.empty() ? "" : " (" + values + ")"));
    }
  }
}

void check_rules(const OpSpec& spec, const CompiledSpec& c, const Bindings& b) {
  for (size_t i = 0; i < spec.rules.size(); ++i) {
    for (const Scope& scope : scopes(b, c.rule_list[i])) {
      const auto ok = c.rules[i]->evaluate(environment(b, scope));
      if (!ok || *ok != 0) continue;  // unevaluable: it reads what an absent optional tensor would bind
      const std::string values = values_of(*c.rules[i], c, scope);
      throw OpError(spec.rules[i].problem, "requires " + c.rules[i]->text() + (values.empty() ? "" : " (" + values + ")") +
                                               ": " + std::string(spec.rules[i].why));
    }
  }
}

// The present tensors' facts in the spec's order, a list's elements in order.
std::vector<std::pair<size_t, const TensorFacts*>> in_order(std::span<const Elements<TensorFacts>> tensors) {
  std::vector<std::pair<size_t, const TensorFacts*>> all;
  all.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i)
    for (const TensorFacts* t : tensors[i])
      if (t) all.emplace_back(i, t);
  return all;
}

void check_index_range(std::span<const std::pair<size_t, const TensorFacts*>> tensors) {
  for (const auto& [i, t] : tensors) {
    for (size_t d = 0; d < t->shape.size(); ++d)
      if (t->shape[d] > INT32_MAX || t->strides[d] > INT32_MAX)
        throw OpError(Problem::unsupported_shape, t->describe() + ": extent " + std::to_string(t->shape[d]) + " or stride " +
                                                      std::to_string(t->strides[d]) + " of dim " + std::to_string(d) +
                                                      " exceeds the kernels' i32 indices");
  }
}

int64_t element_count(const TensorFacts& t) { return numel(t.shape); }

StridedBytes strided_bytes(const TensorFacts& t) { return {t.address, t.shape, t.strides, dtype_size(*t.dtype)}; }

// Whether two distinct indices reach one element: with axes sorted by stride, each stride must step past
// everything the smaller-stride axes reach.
bool self_overlapping(const TensorFacts& t) {
  std::vector<size_t> axes;
  for (size_t i = 0; i < t.shape.size(); ++i)
    if (t.shape[i] > 1) axes.push_back(i);
  std::sort(axes.begin(), axes.end(), [&](size_t a, size_t b) { return t.strides[a] < t.strides[b]; });
  int64_t reach = 1;
  for (size_t axis : axes) {
    if (t.strides[axis] < reach) return true;
    reach += (t.shape[axis] - 1) * t.strides[axis];
  }
  return false;
}

// Every written tensor (every element of a written list) against every other tensor and element.
void check_aliasing(const OpSpec& spec, std::span<const std::pair<size_t, const TensorFacts*>> tensors) {
  for (const auto& [i, w] : tensors) {
    if (!written(spec.tensors[i].role) || w->place == TensorFacts::Place::meta || element_count(*w) == 0) continue;
    if (self_overlapping(*w))
      throw OpError(Problem::aliasing, w->describe() + ": an output's elements overlap each other (strides " +
                                           format_extents(w->strides) + ")");
    for (const auto& [j, other] : tensors) {
      if (other == w || other->place == TensorFacts::Place::meta || element_count(*other) == 0) continue;
      if (other->place != w->place || other->device != w->device) continue;
      if (elements_overlap(strided_bytes(*w), strided_bytes(*other)))
        throw OpError(Problem::aliasing, "output " + w->describe() + " overlaps " + other->describe() +
                                             " in memory: an output may not alias another argument");
    }
  }
}

// The facts of a call's tensors in a row and their Elements, which point into them: a few allocations
// per call, however many tensors (a call is on the launch path).
struct CallFacts {
  std::vector<TensorFacts> facts;
  std::vector<const TensorFacts*> pointers;
  std::vector<Elements<TensorFacts>> elements;

  CallFacts(const OpSpec& spec, std::span<const Elements<AnyTensor>> tensors) {
    size_t total = 0;
    for (const Elements<AnyTensor>& t : tensors) total += t.size();
    facts.reserve(total);  // the pointers below stay valid
    pointers.reserve(total);
    elements.reserve(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorSpec& t = spec.tensors[i];
      if (!t.is_list() && tensors[i].size() != 1)
        throw UserError(std::string(spec.name) + ": " + std::string(t.name) + " is one tensor, got a list of " +
                        std::to_string(tensors[i].size()));
      const size_t first = pointers.size();
      for (size_t g = 0; g < tensors[i].size(); ++g) {
        const AnyTensor* tensor = tensors[i][g];
        if (tensor) facts.push_back(facts_of(*tensor, t.name, t.is_list() ? static_cast<int64_t>(g) : -1));
        pointers.push_back(tensor ? &facts.back() : nullptr);
      }
      elements.emplace_back(pointers.data() + first, tensors[i].size());
    }
  }
};

}  // namespace

std::string TensorFacts::describe() const {
  const std::string where = place == Place::cpu    ? "cpu"
                            : place == Place::meta ? "no device (meta)"
                                                   : "cuda:" + std::to_string(device);
  return std::string(name) + (element >= 0 ? "[" + std::to_string(element) + "]" : "") + " (" +
         (dtype ? std::string(dtype_name(*dtype)) : std::string("an unsupported element type")) + format_extents(shape) +
         " on " + where + ")";
}

void check(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors, std::span<Scalar> scalars) {
  const CompiledSpec& c = detail::compiled(spec);
  check_internal(spec, c);
  Bindings b;
  check_presence(spec, tensors, true);
  check_dtypes(spec, c, tensors, b, true);
  check_ranks(spec, c, tensors, true);
  convert_scalars(spec, scalars, b);
  check_shapes(spec, c, tensors, b, true);
  check_scalar_conditions(spec, c, b);
  check_rules(spec, c, b);
  const auto all = in_order(tensors);
  check_index_range(all);
  check_aliasing(spec, all);
}

void check(const OpSpec& spec, std::span<const TensorFacts* const> tensors, std::span<Scalar> scalars) {
  check(spec, one_each(tensors), scalars);
}

std::vector<OutputShape> output_shapes(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors,
                                       std::span<Scalar> scalars) {
  const CompiledSpec& c = detail::compiled(spec);
  check_internal(spec, c);
  Bindings b;
  check_presence(spec, tensors, false);
  check_dtypes(spec, c, tensors, b, false);
  check_ranks(spec, c, tensors, false);
  convert_scalars(spec, scalars, b);
  check_shapes(spec, c, tensors, b, false);
  check_scalar_conditions(spec, c, b);
  check_rules(spec, c, b);
  check_index_range(inputs_first(spec, tensors, false));
  std::vector<OutputShape> shapes;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    if (t.role != Role::out) continue;
    const detail::CompiledTensor& ct = c.tensors[i];
    const std::span<const Scope> each = scopes(b, ct.list);
    for (size_t g = 0; g < each.size(); ++g) {
      const std::string name = std::string(t.name) + (ct.list >= 0 ? "[" + std::to_string(g) + "]" : "");
      OutputShape shape{ct.dtype_var >= 0 ? b.dtypes[static_cast<size_t>(ct.dtype_var)] : ct.fixed, {}};
      for (size_t d = 0; d < ct.dims.size(); ++d) {
        const auto extent = ct.dims[d].evaluate(environment(b, each[g]));
        if (!extent || *extent < 0 || std::floor(*extent) != *extent)
          throw OpError(Problem::invalid_argument, name + ": dim " + std::to_string(d) + " (" + ct.dims[d].text() +
                                                       ") does not follow from the inputs" +
                                                       (extent ? ": it is " + format_value(*extent) : ""));
        if (*extent > INT32_MAX)
          throw OpError(Problem::unsupported_shape, name + " would have extent " + format_value(*extent) + " in dim " +
                                                        std::to_string(d) + ", past the kernels' i32 indices");
        shape.shape.push_back(static_cast<int64_t>(*extent));
      }
      shapes.push_back(std::move(shape));
    }
  }
  return shapes;
}

std::vector<OutputShape> output_shapes(const OpSpec& spec, std::span<const TensorFacts* const> tensors,
                                       std::span<Scalar> scalars) {
  return output_shapes(spec, one_each(tensors), scalars);
}

bool nothing_to_write(const OpSpec& spec, std::span<const Elements<TensorFacts>> tensors) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (written(spec.tensors[i].role))
      for (const TensorFacts* t : tensors[i])
        if (t && element_count(*t) > 0) return false;
  return true;
}

TensorFacts facts_of(const AnyTensor& tensor, std::string_view name, int64_t element) {
  TensorFacts f;
  f.name = name;
  f.element = element;
  f.dtype = dtype_of(tensor.element_type());
  f.shape = tensor.shape();
  f.strides = tensor.strides();
  if (tensor.is_meta()) {
    f.place = TensorFacts::Place::meta;
  } else {
    f.address = tensor.address();
    f.place = tensor.device().is_cpu() ? TensorFacts::Place::cpu : TensorFacts::Place::cuda;
    f.device = tensor.device().index();
  }
  return f;
}

CheckedCall check_call(const OpSpec& spec, std::span<const Elements<AnyTensor>> tensors, std::span<const Scalar> scalars) {
  if (tensors.size() != spec.tensors.size())
    throw UserError(std::string(spec.name) + " takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                    std::to_string(tensors.size()));
  if (scalars.size() != spec.scalars.size())
    throw UserError(std::string(spec.name) + " takes " + std::to_string(spec.scalars.size()) + " scalars, got " +
                    std::to_string(scalars.size()));
  const CallFacts facts(spec, tensors);
  CheckedCall call{{scalars.begin(), scalars.end()}, false};
  check(spec, facts.elements, call.scalars);
  call.writes_nothing = nothing_to_write(spec, facts.elements);
  return call;
}

void run(const OpSpec& spec, Target& target, std::span<const Elements<AnyTensor>> tensors, std::span<const Scalar> scalars) {
  const CheckedCall call = check_call(spec, tensors, scalars);
  if (!call.writes_nothing) launch(spec, target, Arguments{tensors, call.scalars});
}

void run(const OpSpec& spec, Target& target, std::span<const Elements<AnyTensor>> tensors,
         std::initializer_list<Scalar> scalars) {
  run(spec, target, tensors, std::span<const Scalar>(scalars.begin(), scalars.size()));
}

void run(const OpSpec& spec, Target& target, std::span<const AnyTensor* const> tensors, std::span<const Scalar> scalars) {
  run(spec, target, one_each(tensors), scalars);
}

void run(const OpSpec& spec, Target& target, std::initializer_list<const AnyTensor*> tensors,
         std::initializer_list<Scalar> scalars) {
  run(spec, target, std::span<const AnyTensor* const>(tensors.begin(), tensors.size()),
      std::span<const Scalar>(scalars.begin(), scalars.size()));
}

ElementTable::ElementTable(std::span<const std::vector<AnyTensor>> tensors) {
  pointers_.resize(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    for (const AnyTensor& t : tensors[i]) pointers_[i].push_back(&t);
    elements_.emplace_back(pointers_[i]);
  }
}

}  // namespace cutile::op
