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

// The state of one call's checks: the dtypes and symbols bound so far, and where each came from.
struct Bindings {
  std::vector<int64_t> dtype_sizes;  // per dtype variable; 0 unbound
  std::vector<Dtype> dtypes;
  std::vector<std::optional<long double>> symbols;
  std::vector<std::pair<std::string_view, size_t>> symbol_source;  // (tensor name, dim); an empty name: unbound
  std::vector<long double> scalars;

  // "x's dim 1": made only for a message, so that a passing check builds no strings
  std::string source(size_t symbol) const {
    return std::string(symbol_source[symbol].first) + "'s dim " + std::to_string(symbol_source[symbol].second);
  }
};

bool written(Role role) { return role != Role::in; }

detail::Environment environment(const Bindings& b) { return {b.symbols, b.scalars, b.dtype_sizes}; }

void check_internal(const OpSpec& spec, const CompiledSpec& c) {
  if (!c.problems.empty()) throw InternalError("the description of " + std::string(spec.name) + " is unsound: " + c.problems.front());
}

void check_presence(const OpSpec& spec, std::span<const TensorFacts* const> tensors, bool outputs) {
  if (tensors.size() != spec.tensors.size())
    throw InternalError(std::string(spec.name) + " takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                        std::to_string(tensors.size()));
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    if (!tensors[i] && !t.optional && (outputs || t.role != Role::out))
      throw OpError(Problem::invalid_argument, std::string(t.name) + " is required");
  }
}

// The present tensors, inputs (and in-place ones) first, so that they name the dtypes and ranks and the
// outputs (when checked) are held to them.
std::vector<size_t> inputs_first(const OpSpec& spec, std::span<const TensorFacts* const> tensors, bool outputs) {
  std::vector<size_t> order;
  order.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i] && spec.tensors[i].role != Role::out) order.push_back(i);
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i] && outputs && spec.tensors[i].role == Role::out) order.push_back(i);
  return order;
}

void check_dtypes(const OpSpec& spec, const CompiledSpec& c, std::span<const TensorFacts* const> tensors,
                  Bindings& b, bool outputs) {
  b.dtype_sizes.assign(spec.dtypes.size(), 0);
  b.dtypes.assign(spec.dtypes.size(), Dtype::f32);
  std::vector<size_t> binder(spec.dtypes.size());
  auto supported = [](std::span<const Dtype> set) {
    std::string list;
    for (Dtype d : set) list += (list.empty() ? "" : ", ") + std::string(dtype_name(d));
    return list;
  };
  const std::vector<size_t> order = inputs_first(spec, tensors, outputs);
  // Every tensor's dtype is one the op supports, then each variable's tensors share theirs.
  for (const size_t i : order) {
    const detail::CompiledTensor& t = c.tensors[i];
    const std::span<const Dtype> set = t.dtype_var >= 0 ? std::span<const Dtype>(spec.dtypes[static_cast<size_t>(t.dtype_var)].dtypes)
                                                        : std::span<const Dtype>(&t.fixed, 1);
    if (!tensors[i]->dtype || std::find(set.begin(), set.end(), *tensors[i]->dtype) == set.end())
      throw OpError(Problem::unsupported_dtype, tensors[i]->describe() + ": the op supports " + supported(set));
  }
  for (const size_t i : order) {
    const int var = c.tensors[i].dtype_var;
    if (var < 0) continue;
    const auto v = static_cast<size_t>(var);
    if (b.dtype_sizes[v] == 0) {
      b.dtypes[v] = *tensors[i]->dtype;
      b.dtype_sizes[v] = dtype_size(b.dtypes[v]);
      binder[v] = i;
    } else if (*tensors[i]->dtype != b.dtypes[v]) {
      throw OpError(Problem::dtype_mismatch, tensors[i]->describe() + " and " + tensors[binder[v]]->describe() +
                                                 " must have the same dtype");
    }
  }
}

void check_ranks(const OpSpec& spec, const CompiledSpec& c, std::span<const TensorFacts* const> tensors, bool outputs) {
  for (const size_t i : inputs_first(spec, tensors, outputs)) {
    if (tensors[i]->shape.size() != c.tensors[i].dims.size())
      throw OpError(Problem::rank_mismatch, tensors[i]->describe() + ": expected " + std::to_string(c.tensors[i].dims.size()) +
                                                " dims (" + std::string(spec.tensors[i].type) + "), got " +
                                                std::to_string(tensors[i]->shape.size()));
  }
}

// Binds the symbols from the inputs in order, then holds every dim (of the outputs too, when given) to them.
void check_shapes(const OpSpec& spec, const CompiledSpec& c, std::span<const TensorFacts* const> tensors, Bindings& b,
                  bool outputs) {
  if (c.names.symbols.size() > kMaxSymbols) throw InternalError(std::string(spec.name) + " has too many shape symbols");
  b.symbols.assign(c.names.symbols.size(), std::nullopt);
  b.symbol_source.assign(c.names.symbols.size(), {});
  auto visit = [&](size_t i) {
    const TensorFacts& t = *tensors[i];
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
      const std::pair<std::string_view, size_t> source{t.name, stored(d)};
      if (const auto s = ct.dims[d].lone_symbol(); s && !b.symbols[static_cast<size_t>(*s)]) {
        b.symbols[static_cast<size_t>(*s)] = extent;
        b.symbol_source[static_cast<size_t>(*s)] = source;
      } else if (const auto k = ct.dims[d].scaled_symbol(); k && !b.symbols[static_cast<size_t>(k->second)]) {
        if (t.shape[stored(d)] % k->first != 0)
          throw OpError(Problem::shape_mismatch, named() + ": dim " + std::to_string(stored(d)) + " is " +
                                                     std::to_string(t.shape[stored(d)]) + ", which must be " + ct.dims[d].text() +
                                                     " (" + std::string(spec.tensors[i].type) + "): a multiple of " +
                                                     std::to_string(k->first));
        b.symbols[static_cast<size_t>(k->second)] = extent / static_cast<long double>(k->first);
        b.symbol_source[static_cast<size_t>(k->second)] = source;
      }
    }
    for (size_t d = 0; d < ct.dims.size(); ++d) {
      const auto want = ct.dims[d].evaluate(environment(b));
      if (!want) continue;  // reads a symbol no tensor binds: the rules or the launcher hold it
      if (*want == static_cast<long double>(t.shape[stored(d)])) continue;
      std::string from;
      for (int s : ct.dims[d].symbols())
        if (!b.symbol_source[static_cast<size_t>(s)].first.empty())
          from += (from.empty() ? "" : ", ") + c.names.symbols[static_cast<size_t>(s)] + " from " +
                  b.source(static_cast<size_t>(s));
      throw OpError(Problem::shape_mismatch, named() + ": dim " + std::to_string(stored(d)) + " must be " +
                                                 ct.dims[d].text() + " = " + format_value(*want) +
                                                 (from.empty() ? "" : " (" + from + ")") + ", got " +
                                                 std::to_string(t.shape[stored(d)]));
    }
  };
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i] && !written(spec.tensors[i].role)) visit(i);
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i] && spec.tensors[i].role == Role::inout) visit(i);
  if (outputs)
    for (size_t i = 0; i < tensors.size(); ++i)
      if (tensors[i] && spec.tensors[i].role == Role::out) visit(i);
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

// The scalars' conditions, which may read the shape symbols.
void check_scalar_conditions(const OpSpec& spec, const CompiledSpec& c, Bindings& b) {
  for (size_t i = 0; i < spec.scalars.size(); ++i) {
    if (!c.valid[i]) continue;
    const auto ok = c.valid[i]->evaluate(environment(b));
    if (ok && *ok != 0) continue;
    throw OpError(Problem::invalid_argument, std::string(spec.scalars[i].name) + " is " + format_value(b.scalars[i]) +
                                                 "; it must satisfy " + c.valid[i]->text());
  }
}

void check_rules(const OpSpec& spec, const CompiledSpec& c, const Bindings& b) {
  for (size_t i = 0; i < spec.rules.size(); ++i) {
    const auto ok = c.rules[i]->evaluate(environment(b));
    if (!ok || *ok != 0) continue;  // unevaluable: it reads what an absent optional tensor would bind
    std::string values;
    for (int s : c.rules[i]->symbols())
      if (b.symbols[static_cast<size_t>(s)])
        values += (values.empty() ? "" : ", ") + c.names.symbols[static_cast<size_t>(s)] + " = " +
                  format_value(*b.symbols[static_cast<size_t>(s)]) + " from " + b.source(static_cast<size_t>(s));
    throw OpError(spec.rules[i].problem, "requires " + c.rules[i]->text() + (values.empty() ? "" : " (" + values + ")") +
                                             ": " + std::string(spec.rules[i].why));
  }
}

void check_index_range(std::span<const TensorFacts* const> tensors) {
  for (const TensorFacts* t : tensors) {
    if (!t) continue;
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

void check_aliasing(const OpSpec& spec, std::span<const TensorFacts* const> tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorFacts* w = tensors[i];
    if (!w || !written(spec.tensors[i].role) || w->place == TensorFacts::Place::meta || element_count(*w) == 0) continue;
    if (self_overlapping(*w))
      throw OpError(Problem::aliasing, w->describe() + ": an output's elements overlap each other (strides " +
                                           format_extents(w->strides) + ")");
    for (size_t j = 0; j < tensors.size(); ++j) {
      const TensorFacts* other = tensors[j];
      if (j == i || !other || other->place == TensorFacts::Place::meta || element_count(*other) == 0) continue;
      if (other->place != w->place || other->device != w->device) continue;
      if (elements_overlap(strided_bytes(*w), strided_bytes(*other)))
        throw OpError(Problem::aliasing, "output " + w->describe() + " overlaps " + other->describe() +
                                             " in memory: an output may not alias another argument");
    }
  }
}

}  // namespace

std::string TensorFacts::describe() const {
  const std::string where = place == Place::cpu    ? "cpu"
                            : place == Place::meta ? "no device (meta)"
                                                   : "cuda:" + std::to_string(device);
  return std::string(name) + " (" + (dtype ? std::string(dtype_name(*dtype)) : std::string("an unsupported element type")) +
         format_extents(shape) + " on " + where + ")";
}

void check(const OpSpec& spec, std::span<const TensorFacts* const> tensors, std::span<Scalar> scalars) {
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
  check_index_range(tensors);
  check_aliasing(spec, tensors);
}

std::vector<OutputShape> output_shapes(const OpSpec& spec, std::span<const TensorFacts* const> tensors,
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
  std::vector<const TensorFacts*> inputs;
  for (size_t i = 0; i < tensors.size(); ++i) inputs.push_back(spec.tensors[i].role == Role::out ? nullptr : tensors[i]);
  check_index_range(inputs);
  std::vector<OutputShape> shapes;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    if (t.role != Role::out) continue;
    const detail::CompiledTensor& ct = c.tensors[i];
    OutputShape shape{ct.dtype_var >= 0 ? b.dtypes[static_cast<size_t>(ct.dtype_var)] : ct.fixed, {}};
    for (size_t d = 0; d < ct.dims.size(); ++d) {
      const auto extent = ct.dims[d].evaluate(environment(b));
      if (!extent || *extent < 0 || std::floor(*extent) != *extent)
        throw OpError(Problem::invalid_argument, std::string(t.name) + ": dim " + std::to_string(d) + " (" +
                                                     ct.dims[d].text() + ") does not follow from the inputs" +
                                                     (extent ? ": it is " + format_value(*extent) : ""));
      if (*extent > INT32_MAX)
        throw OpError(Problem::unsupported_shape, std::string(t.name) + " would have extent " + format_value(*extent) +
                                                      " in dim " + std::to_string(d) + ", past the kernels' i32 indices");
      shape.shape.push_back(static_cast<int64_t>(*extent));
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

bool nothing_to_write(const OpSpec& spec, std::span<const TensorFacts* const> tensors) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i] && written(spec.tensors[i].role) && element_count(*tensors[i]) > 0) return false;
  return true;
}

TensorFacts facts_of(const AnyTensor& tensor, std::string_view name) {
  TensorFacts f;
  f.name = name;
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

CheckedCall check_call(const OpSpec& spec, std::span<const AnyTensor* const> tensors, std::span<const Scalar> scalars) {
  if (tensors.size() != spec.tensors.size())
    throw UserError(std::string(spec.name) + " takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                    std::to_string(tensors.size()));
  if (scalars.size() != spec.scalars.size())
    throw UserError(std::string(spec.name) + " takes " + std::to_string(spec.scalars.size()) + " scalars, got " +
                    std::to_string(scalars.size()));
  std::vector<TensorFacts> facts(tensors.size());
  std::vector<const TensorFacts*> pointers(tensors.size(), nullptr);
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i]) continue;
    facts[i] = facts_of(*tensors[i], spec.tensors[i].name);
    pointers[i] = &facts[i];
  }
  CheckedCall call{{scalars.begin(), scalars.end()}, false};
  check(spec, pointers, call.scalars);
  call.writes_nothing = nothing_to_write(spec, pointers);
  return call;
}

void run(const OpSpec& spec, Target& target, std::span<const AnyTensor* const> tensors, std::span<const Scalar> scalars) {
  const CheckedCall call = check_call(spec, tensors, scalars);
  if (!call.writes_nothing) launch(spec, target, Arguments{tensors, call.scalars});
}

void run(const OpSpec& spec, Target& target, std::initializer_list<const AnyTensor*> tensors,
         std::initializer_list<Scalar> scalars) {
  run(spec, target, std::span<const AnyTensor* const>(tensors.begin(), tensors.size()),
      std::span<const Scalar>(scalars.begin(), scalars.size()));
}

}  // namespace cutile::op
