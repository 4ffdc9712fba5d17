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

// The descriptors of one call as the spec names them; without `outputs` (shapes only), outputs are skipped
// and data pointers not looked at.
std::vector<CheckedTensor> checked_tensors(const op::OpSpec& spec, std::span<const cutile_cpp_tensor* const> tensors,
                                           std::optional<int32_t> device_id, bool outputs) {
  if (tensors.size() != spec.tensors.size())
    throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "takes " + std::to_string(spec.tensors.size()) + " tensors, got " +
                                                          std::to_string(tensors.size()));
  std::vector<TensorParam> params;
  params.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const op::TensorSpec& t = spec.tensors[i];
    const bool skipped = !outputs && t.role == op::Role::out;
    params.push_back({t.name, skipped ? nullptr : tensors[i], t.role != op::Role::in, t.optional || skipped});
  }
  return check_descriptors(params, device_id, outputs);
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

std::vector<op::TensorFacts> facts(const std::vector<CheckedTensor>& checked) {
  std::vector<op::TensorFacts> f;
  f.reserve(checked.size());
  for (const CheckedTensor& t : checked) f.push_back(t.facts());
  return f;
}

std::vector<const op::TensorFacts*> present(const std::vector<CheckedTensor>& checked,
                                            const std::vector<op::TensorFacts>& facts) {
  std::vector<const op::TensorFacts*> pointers(checked.size(), nullptr);
  for (size_t i = 0; i < checked.size(); ++i)
    if (checked[i].present) pointers[i] = &facts[i];
  return pointers;
}

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
             std::span<const cutile_cpp_scalar> scalars, int32_t device_id, void* stream) noexcept {
  return guarded(function, [&] {
    if (!spec) throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "the op has no registered description");
    const std::vector<CheckedTensor> checked = checked_tensors(*spec, tensors, device_id, true);
    std::vector<op::Scalar> values = scalar_values(*spec, scalars);
    const std::vector<op::TensorFacts> all_facts = facts(checked);
    const std::vector<const op::TensorFacts*> pointers = present(checked, all_facts);
    op::check(*spec, pointers, values);
    if (op::nothing_to_write(*spec, pointers)) return;
    std::vector<CheckedTensor> placed;
    placed.reserve(checked.size());
    for (const CheckedTensor& t : checked)
      if (t.present) placed.push_back(t);
    const Placement placement = place(placed, device_id, stream);
    std::vector<AnyTensor> lent;
    lent.reserve(checked.size());
    std::vector<const AnyTensor*> arguments(checked.size(), nullptr);
    for (size_t i = 0; i < checked.size(); ++i) {
      if (!checked[i].present) continue;
      lent.push_back(lend(checked[i], placement));
      arguments[i] = &lent.back();
    }
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

int32_t cutile_cpp_call(int32_t op, const cutile_cpp_tensor* const* tensors, int32_t tensor_count,
                        const cutile_cpp_scalar* scalars, int32_t scalar_count, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  const cutile::op::OpSpec* spec = spec_number(op);
  if (!spec || tensor_count < 0 || scalar_count < 0 || (tensor_count > 0 && !tensors) || (scalar_count > 0 && !scalars))
    return guarded("cutile_cpp_call", [&] {
      if (!spec) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "op " + std::to_string(op) + " is no op's number");
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "null or negative tensor or parameter arrays");
    });
  return call(spec, function_name(op).c_str(), {tensors, static_cast<size_t>(tensor_count)},
              {scalars, static_cast<size_t>(scalar_count)}, device_id, stream);
}

int32_t cutile_cpp_output_shapes(int32_t op, const cutile_cpp_tensor* const* tensors, int32_t tensor_count,
                                 const cutile_cpp_scalar* scalars, int32_t scalar_count, cutile_cpp_tensor* outputs,
                                 int32_t output_count) {
  using namespace cutile::capi;
  const cutile::op::OpSpec* spec = spec_number(op);
  return guarded(spec ? function_name(op).c_str() : "cutile_cpp_output_shapes", [&] {
    if (!spec) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "op " + std::to_string(op) + " is no op's number");
    if (tensor_count < 0 || scalar_count < 0 || output_count < 0 || (tensor_count > 0 && !tensors) ||
        (scalar_count > 0 && !scalars) || (output_count > 0 && !outputs))
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "null or negative tensor, parameter or output arrays");
    const std::vector<CheckedTensor> checked =
        checked_tensors(*spec, {tensors, static_cast<size_t>(tensor_count)}, std::nullopt, false);
    std::vector<cutile::op::Scalar> values = scalar_values(*spec, {scalars, static_cast<size_t>(scalar_count)});
    const std::vector<cutile::op::TensorFacts> all_facts = facts(checked);
    const auto shapes = cutile::op::output_shapes(*spec, present(checked, all_facts), values);
    if (shapes.size() != static_cast<size_t>(output_count))
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "has " + std::to_string(shapes.size()) + " outputs, got room for " +
                                                            std::to_string(output_count));
    const CheckedTensor* first = nullptr;
    for (const CheckedTensor& t : checked)
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
