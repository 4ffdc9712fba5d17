// vector_add: the description and launcher of vector_add.hpp.
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "elementwise/vector_add.hpp"

namespace cutile::kernels {

void launch_vector_add(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b) {
  constexpr int64_t TILE = 1024;
  op::with_float_element(c.element_type(), [&]<class E>() {
    target.launch({}, vector_add<E, TILE>, Tensor<E>(c).partition({TILE}), Tensor<E>(a), Tensor<E>(b));
  });
}

const op::OpSpec vector_add_op{
    .name = "vector_add",
    .family = "elementwise",
    .doc = "c = a + b elementwise, in the dtype.",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("c", "E[N]").flat(), op::in("a", "E[N]").flat(), op::in("b", "E[N]").flat()},
    .launch = op::bind<launch_vector_add>(),
    .configurations = {"N=1000 E={f32,f16,bf16}"},
};

const op::Registration registration{vector_add_op};

}  // namespace cutile::kernels
