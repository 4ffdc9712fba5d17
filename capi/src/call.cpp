#include "call.hpp"

#include <string>
#include <vector>

#include "cutile/op/describe.hpp"
#include "cutile/op/run.hpp"
#include "cutile/op/tuning.hpp"
#include "descriptor.hpp"
#include "placement.hpp"
#include "status.hpp"

namespace cutile::capi {
namespace {

// The checked descriptors of one call in a row, and how many of them each of the spec's tensors has.
struct Checked {
  std::vector<CheckedTensor> tensors;
  std::vector<size_t> counts;
};

// The descriptors of one call as the spec names them (a list's in order); without `outputs` (shapes only),
// outputs are skipped and data pointers not looked at. `counts` are the lists' lengths, by tensor (empty
// when none is given).
Checked checked_tensors(const op::OpSpec& spec, std::span<const cutile_cpp_tensor* const> tensors,
                        std::span<const int64_t> counts, std::optional<int32_t> device_id, bool outputs) {
  if (tensors.size() != spec.tensors.size())
    throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                                                          std::to_string(tensors.size()));
  std::vector<TensorParam> params;
  std::vector<size_t> sizes;
  params.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const op::TensorSpec& t = spec.tensors[i];
    const bool skipped = !outputs && t.role == op::Role::out;
    const bool written = t.role != op::Role::in;
    if (!t.is_list()) {
      params.push_back({t.name, skipped ? nullptr : tensors[i], written, t.optional || skipped});
      sizes.push_back(1);
      continue;
    }
    if (skipped) {
      sizes.push_back(0);
      continue;
    }
    if (counts.empty())
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, std::string(t.name) + " is a list, but no counts are given");
    const int64_t count = counts[i];
    if (count < 0 || count > INT32_MAX)
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, std::string(t.name) + ": the count " + std::to_string(count) +
                                                            " of the list is outside 0.." + std::to_string(INT32_MAX));
    if (count > 0 && !tensors[i])
      throw AbiError(CUTILE_CPP_ERROR_NULL_POINTER, std::string(t.name) + ": the array of " + std::to_string(count) +
                                                        " descriptors is null");
    for (int64_t g = 0; g < count; ++g) params.push_back({t.name, &tensors[i][g], written, false, g});
    sizes.push_back(static_cast<size_t>(count));
  }
  return {check_descriptors(params, device_id, outputs), std::move(sizes)};
}

// Elements over pointers in a row, `counts` of them per argument.
template <class T>
std::vector<op::Elements<T>> grouped(const std::vector<const T*>& pointers, std::span<const size_t> counts) {
  std::vector<op::Elements<T>> elements;
  elements.reserve(counts.size());
  size_t first = 0;
  for (const size_t count : counts) {
    elements.emplace_back(pointers.data() + first, count);
    first += count;
  }
  return elements;
}

std::vector<op::Scalar> scalar_values(const op::OpSpec& spec, std::span<const cutile_cpp_scalar> scalars) {
  if (scalars.size() != spec.scalars.size())
    throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "takes " + std::to_string(spec.scalars.size()) +
                                                          " parameters, got " + std::to_string(scalars.size()));
  std::vector<op::Scalar> values;
  values.reserve(scalars.size());
  for (size_t i = 0; i < scalars.size(); ++i)
    values.push_back(spec.scalars[i].type == op::ScalarType::real ? op::Scalar(scalars[i].real)
                                                                  : op::Scalar(scalars[i].integer));
  return values;
}

// The op description's view of checked descriptors: their facts, as Elements (null for an absent one).
struct Facts {
  std::vector<op::TensorFacts> facts;
  std::vector<const op::TensorFacts*> pointers;
  std::vector<op::Elements<op::TensorFacts>> elements;

  explicit Facts(const Checked& checked) {
    facts.reserve(checked.tensors.size());  // the pointers below stay valid
    pointers.reserve(checked.tensors.size());
    for (const CheckedTensor& t : checked.tensors) {
      if (t.present) facts.push_back(t.facts());
      pointers.push_back(t.present ? &facts.back() : nullptr);
    }
    elements = grouped(pointers, checked.counts);
  }
};

const op::OpSpec* spec_number(int32_t op) {
  const auto ops = op::registered_ops();
  return op >= 0 && static_cast<size_t>(op) < ops.size() ? ops[static_cast<size_t>(op)] : nullptr;
}

// "cutile_cpp_<op>", the name its messages start with, by op number: made once, not per call.
const std::string& function_name(int32_t op) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const op::OpSpec* spec : op::registered_ops()) all.push_back("cutile_cpp_" + std::string(spec->name));
    return all;
  }();
  return names[static_cast<size_t>(op)];
}

}  // namespace

int32_t call(const op::OpSpec* spec, const char* function, std::span<const cutile_cpp_tensor* const> tensors,
             std::span<const int64_t> counts, std::span<const cutile_cpp_scalar> scalars, int32_t device_id,
             void* stream) noexcept {
  return guarded(function, [&] {
    if (!spec) throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "the op has no registered description");
    const Checked checked = checked_tensors(*spec, tensors, counts, device_id, true);
    std::vector<op::Scalar> values = scalar_values(*spec, scalars);
    const Facts facts(checked);
    op::check(*spec, facts.elements, values);
    if (op::nothing_to_write(*spec, facts.elements)) return;
    std::vector<CheckedTensor> placed;
    placed.reserve(checked.tensors.size());
    for (const CheckedTensor& t : checked.tensors)
      if (t.present) placed.push_back(t);
    const Placement placement = place(placed, device_id, stream);
    std::vector<AnyTensor> lent;
    lent.reserve(checked.tensors.size());  // the pointers below stay valid
    std::vector<const AnyTensor*> pointers;
    pointers.reserve(checked.tensors.size());
    for (const CheckedTensor& t : checked.tensors) {
      if (t.present) lent.push_back(lend(t, placement));
      pointers.push_back(t.present ? &lent.back() : nullptr);
    }
    const std::vector<op::Elements<AnyTensor>> arguments = grouped(pointers, checked.counts);
    op::Target target = op::Target::on(placement.stream);
    op::launch(*spec, target, op::Arguments{arguments, values});
  });
}

}  // namespace cutile::capi

extern "C" {

const char* cutile_cpp_op_specs(void) {
  static const std::string json = [] {
    try {
      return cutile::op::describe_all_json(CUTILE_CPP_ABI_VERSION);
    } catch (...) {
      return std::string();  // callers see an empty document
    }
  }();
  return json.c_str();
}

int32_t cutile_cpp_op_number(const char* name) {
  if (!name) return -1;
  const auto ops = cutile::op::registered_ops();
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i]->name == name) return static_cast<int32_t>(i);
  return -1;
}

int32_t cutile_cpp_call(int32_t op, const cutile_cpp_tensor* const* tensors, const int64_t* counts,
                        int32_t tensor_count, const cutile_cpp_scalar* scalars, int32_t scalar_count, int32_t device_id,
                        void* stream) {
  using namespace cutile::capi;
  const cutile::op::OpSpec* spec = spec_number(op);
  if (!spec || tensor_count < 0 || scalar_count < 0 || (tensor_count > 0 && !tensors) || (scalar_count > 0 && !scalars))
    return guarded("cutile_cpp_call", [&] {
      if (!spec) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "op " + std::to_string(op) + " is no op's number");
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "null or negative tensor or parameter arrays");
    });
  const auto count = static_cast<size_t>(tensor_count);
  return call(spec, function_name(op).c_str(), {tensors, count}, {counts, counts ? count : 0},
              {scalars, static_cast<size_t>(scalar_count)}, device_id, stream);
}

int32_t cutile_cpp_output_shapes(int32_t op, const cutile_cpp_tensor* const* tensors, const int64_t* counts,
                                 int32_t tensor_count, const cutile_cpp_scalar* scalars, int32_t scalar_count,
                                 cutile_cpp_tensor* outputs, int32_t output_count) {
  using namespace cutile::capi;
  const cutile::op::OpSpec* spec = spec_number(op);
  return guarded(spec ? function_name(op).c_str() : "cutile_cpp_output_shapes", [&] {
    if (!spec) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "op " + std::to_string(op) + " is no op's number");
    if (tensor_count < 0 || scalar_count < 0 || output_count < 0 || (tensor_count > 0 && !tensors) ||
        (scalar_count > 0 && !scalars) || (output_count > 0 && !outputs))
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "null or negative tensor, parameter or output arrays");
    const auto count = static_cast<size_t>(tensor_count);
    const Checked checked = checked_tensors(*spec, {tensors, count}, {counts, counts ? count : 0}, std::nullopt, false);
    std::vector<cutile::op::Scalar> values = scalar_values(*spec, {scalars, static_cast<size_t>(scalar_count)});
    const Facts facts(checked);
    const auto shapes = cutile::op::output_shapes(*spec, facts.elements, values);
    if (shapes.size() != static_cast<size_t>(output_count))
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "has " + std::to_string(shapes.size()) + " outputs, got room for " +
                                                            std::to_string(output_count));
    const CheckedTensor* first = nullptr;
    for (const CheckedTensor& t : checked.tensors)
      if (t.present && !first) first = &t;
    for (size_t i = 0; i < shapes.size(); ++i) {
      cutile_cpp_tensor& out = outputs[i];
      out = cutile_cpp_tensor{};
      out.ndim = static_cast<int32_t>(shapes[i].shape.size());
      out.dtype = static_cast<int32_t>(shapes[i].dtype);
      out.device_type = first ? first->device_type : CUTILE_CPP_DEVICE_CPU;
      out.device_id = first ? first->device_id : 0;
      int64_t stride = 1;
      for (size_t d = shapes[i].shape.size(); d-- > 0;) {
        out.shape[d] = shapes[i].shape[d];
        out.strides[d] = stride;
        stride *= std::max<int64_t>(shapes[i].shape[d], 1);
      }
    }
  });
}

}  // extern "C"
