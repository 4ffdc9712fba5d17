#include "cutile/params/base.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {

std::vector<ir::Type> array_param_types(ir::ElementType element, size_t rank) {
  std::vector<ir::Type> types = {ir::Type::scalar_tile_of_pointer(element)};
  for (size_t i = 0; i < 2 * rank; ++i) types.push_back(ir::Type::scalar(ir::ElementType::i32));
  return types;
}

ArrayValues array_prologue(ir::Builder& b, ir::Value* base, std::span<ir::Value* const> layout,
                           ir::ElementType element, std::span<const int64_t> static_dims, const ArrayFacts& facts) {
  const size_t rank = static_dims.size();
  const int element_bytes = std::max(1, ir::element_bits(element) / 8);
  auto bit = [](uint32_t mask, size_t d) { return (mask >> d) & 1u; };

  if (facts.base_aligned_16) base = b.assume(base, ir::Attribute::div_by(16));
  ArrayValues out;
  out.base = base;
  std::vector<int64_t> shape, strides;
  std::vector<ir::Value*> dynamic_shape, dynamic_strides;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t fixed = static_dims[d] != dyn ? static_dims[d] : bit(facts.unit_extent, d) ? 1 : 0;
    if (fixed > 0) {
      shape.push_back(fixed);
      out.extents.push_back(b.constant_int(ir::ElementType::i32, fixed));
      continue;
    }
    ir::Value* extent = b.assume(layout[d], ir::Attribute::bounded(0, std::nullopt));
    if (bit(facts.extent_div16, d)) extent = b.assume(extent, ir::Attribute::div_by(16));
    shape.push_back(ir::kDynamic);
    dynamic_shape.push_back(extent);
    out.extents.push_back(extent);
  }
  for (size_t d = 0; d < rank; ++d) {
    if (bit(facts.unit_stride, d)) {
      strides.push_back(1);
      out.strides.push_back(nullptr);
      continue;
    }
    ir::Value* stride = b.assume(layout[rank + d], ir::Attribute::bounded(0, std::nullopt));
    if (bit(facts.stride_div16, d) && 16 / element_bytes > 1)
      stride = b.assume(stride, ir::Attribute::div_by(16 / element_bytes));
    strides.push_back(ir::kDynamic);
    dynamic_strides.push_back(stride);
    out.strides.push_back(stride);
  }
  out.tensor_view = b.make_tensor_view(base, ir::Type::tensor_view(ir::Type::element(element), shape, strides),
                                       dynamic_shape, dynamic_strides);
  return out;
}

ArrayValues trace_array(TraceContext& ctx, size_t first_param, ir::ElementType element,
                        std::span<const int64_t> static_dims, const ArrayFacts& facts) {
  ir::Function& f = ctx.function();
  std::vector<ir::Value*> layout;
  for (size_t i = 0; i < 2 * static_dims.size(); ++i) layout.push_back(f.parameter(first_param + 1 + i));
  return array_prologue(ctx.builder(), f.parameter(first_param), layout, element, static_dims, facts);
}

std::optional<ir::Attribute> access_hints(const AccessHints& hints) {
  std::vector<std::pair<std::string, ir::Attribute>> entries;
  if (hints.latency) {
    if (*hints.latency < 1 || *hints.latency > 10)
      throw UserError("latency hint must be in 1..10, got " + std::to_string(*hints.latency));
    entries.emplace_back("latency", ir::Attribute::i32(*hints.latency));
  }
  if (hints.allow_tma) entries.emplace_back("allow_tma", ir::Attribute::boolean(*hints.allow_tma));
  if (entries.empty()) return std::nullopt;
  return ir::Attribute::optimization_hints({{"default", ir::Attribute::dictionary(std::move(entries))}});
}

std::optional<ir::PaddingValue> padding_of(pad p) {
  switch (p) {
    case pad::none: return std::nullopt;
    case pad::zero: return ir::PaddingValue::zero;
    case pad::neg_zero: return ir::PaddingValue::neg_zero;
    case pad::nan: return ir::PaddingValue::nan;
    case pad::pos_inf: return ir::PaddingValue::pos_inf;
    case pad::neg_inf: return ir::PaddingValue::neg_inf;
  }
  return std::nullopt;
}

}  // namespace cutile::detail
