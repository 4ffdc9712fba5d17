// libFuzzer target for the C ABI's checks of a call: four tensor descriptors and two scalars taken from
// the input, checked as the library checks every call (descriptor fields, devices, then the op
// description's dtypes, shapes, transposes, rules, scalars, extents and aliasing) against a description
// with every kind of rule. Any input must pass or be refused with a status and a message; what passes
// must have output shapes that the same checks accept.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "cutile/op/run.hpp"
#include "descriptor.hpp"
#include "status.hpp"

namespace {

namespace op = cutile::op;

void launch_nothing(op::Target&, const cutile::AnyTensor&, const cutile::AnyTensor&, const cutile::AnyTensor&,
                    const cutile::AnyTensor*, bool, double) {}

// c = op(a) @ op(b) + bias: transposed inputs, an optional one, a flag, a real with a valid range, a rule.
const op::OpSpec spec{
    .name = "fuzzed",
    .dtypes = {{"E", {op::Dtype::f32, op::Dtype::f16, op::Dtype::bf16, op::Dtype::f8e4m3fn}}},
    .tensors = {op::out("c", "E[M, N]"), op::in("a", "E[M, K]").transposed_when("trans_a"), op::in("b", "E[K, N]"),
                op::in("bias", "f32[N]").may_be_absent()},
    .scalars = {op::flag("trans_a"), op::real("alpha", 1.0).valid_when("finite(alpha) && alpha != 0")},
    .rules = {op::unsupported_unless("K <= 65536 && size(E) * N <= 1048576", "a row of b is one tile")},
    .launch = op::bind<launch_nothing>(),
};

template <class T>
T take(const uint8_t*& data, size_t& size) {
  T value{};
  const size_t n = std::min(size, sizeof(T));
  std::memcpy(&value, data, n);
  data += n;
  size -= n;
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto shape = take<uint8_t>(data, size);  // which descriptors are given, the device id, the memory check
  std::array<cutile_cpp_tensor, 4> descriptors{};
  for (auto& d : descriptors) d = take<cutile_cpp_tensor>(data, size);
  op::Scalar scalars[] = {take<int64_t>(data, size), take<double>(data, size)};
  const char* names[] = {"c", "a", "b", "bias"};
  std::vector<cutile::capi::TensorParam> params;
  for (size_t i = 0; i < descriptors.size(); ++i)
    params.push_back({names[i], shape & (1u << i) ? &descriptors[i] : nullptr, i == 0, i == 3});
  const std::optional<int32_t> device_id = shape & 0x10 ? std::optional<int32_t>(static_cast<int8_t>(shape) >> 5) : std::nullopt;

  std::vector<cutile::capi::CheckedTensor> checked;
  try {
    checked = cutile::capi::check_descriptors(params, device_id, (shape & 0x20) != 0);
  } catch (const cutile::capi::AbiError& e) {
    if (e.message().empty()) std::abort();
    return 0;
  }
  std::vector<op::TensorFacts> facts;
  facts.reserve(checked.size());
  for (const auto& t : checked) {
    (void)t.describe();
    facts.push_back(t.facts());
  }
  std::vector<const op::TensorFacts*> tensors;
  for (size_t i = 0; i < checked.size(); ++i) tensors.push_back(checked[i].present ? &facts[i] : nullptr);
  try {
    op::check(spec, tensors, scalars);
  } catch (const op::OpError& e) {
    if (e.message().empty()) std::abort();
    return 0;
  }
  // A call that passes: the output shapes the spec derives must be the output's own.
  const auto outputs = op::output_shapes(spec, tensors, scalars);
  if (outputs.size() != 1 || !std::equal(outputs[0].shape.begin(), outputs[0].shape.end(), facts[0].shape.begin(),
                                         facts[0].shape.end())) {
    std::fprintf(stderr, "a call passed the checks with an output of another shape\n");
    std::abort();
  }
  return 0;
}
