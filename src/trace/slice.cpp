// Sub-tensors of an input: the base pointer moves to the first element of the slice and the sliced
// dimension gets a new (dynamic) extent; the bounds are clamped into the tensor, so a slice never
// reaches memory its tensor does not.
#include "cutile/params/base.hpp"

namespace cutile::detail {

ArrayValues slice_array(ir::Builder& b, const ArrayValues& v, size_t axis, ir::Value* start, ir::Value* stop) {
  using E = ir::ElementType;
  const auto signed_attr = std::vector<ir::NamedAttribute>{
      {"signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)}};
  auto clamp = [&](ir::Value* x, ir::Value* lo, ir::Value* hi) {
    return b.binary(ir::Opcode::mini, b.binary(ir::Opcode::maxi, x, lo, signed_attr), hi, signed_attr);
  };
  ir::Value* extent = v.extents[axis];
  ir::Value* first = clamp(start, b.constant_int(E::i32, 0), extent);
  ir::Value* last = clamp(stop, first, extent);

  ArrayValues out = v;
  out.extents[axis] = b.binary(ir::Opcode::subi, last, first);
  ir::Value* skip = b.exti(first, E::i64);
  if (v.strides[axis]) skip = b.binary(ir::Opcode::muli, skip, b.exti(v.strides[axis], E::i64));
  out.base = b.offset(v.base, skip);

  const ir::Type& type = v.tensor_view->type();
  std::vector<int64_t> shape = type.shape();
  shape[axis] = ir::kDynamic;
  std::vector<ir::Value*> dynamic_shape, dynamic_strides;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] == ir::kDynamic) dynamic_shape.push_back(out.extents[d]);
  for (size_t d = 0; d < shape.size(); ++d)
    if (type.strides()[d] == ir::kDynamic) dynamic_strides.push_back(out.strides[d]);
  out.tensor_view = b.make_tensor_view(out.base, ir::Type::tensor_view(type.element(), shape, type.strides()),
                                       dynamic_shape, dynamic_strides);
  return out;
}

}  // namespace cutile::detail
