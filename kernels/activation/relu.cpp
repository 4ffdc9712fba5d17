// relu: the description and launcher of relu.hpp, one instance per dtype.
#include "activation/relu.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {

void launch_relu(op::Target& target, const AnyTensor& y, const AnyTensor& x) {
  constexpr int64_t TILE = 1024;
  op::with_float_element(x.element_type(), [&]<class E>() {
    target.launch({}, relu<E, TILE>, Tensor<E>(y).partition({TILE}), Tensor<E>(x));
  });
}

const op::OpSpec relu_op{
    .name = "relu",
    .family = "elementwise",
    .doc = "y = max(x, 0) elementwise (TileGym's cutile relu has no backward either).",
    .provenance = "TileGym src/tilegym/ops/cutile/activation/relu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[N]").flat().like_input("x"), op::in("x", "E[N]").flat()},
    .launch = op::bind<launch_relu>(),
    .parity = {{"relu.forward", "relu", "N=8388608 E=f16"}},
    .configurations = {"N=4096 E={f32,f16,bf16}"},
    .tilegym = {.name = "relu", .signature = "x"},
};

const op::Registration registration{relu_op};

}  // namespace cutile::kernels
