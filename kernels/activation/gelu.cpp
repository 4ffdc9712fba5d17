// gelu, gelu_backward: the descriptions and launchers of gelu.hpp, one instance per dtype, form and tile.
#include "activation/gelu.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kTile = 1024, kWideTile = 4096, kWideFrom = int64_t{1} << 24;

}  // namespace

void launch_gelu(op::Target& target, const AnyTensor& y, const AnyTensor& x, GeluApprox approximate) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> yt(y), xt(x);
    with_gelu_approx(approximate, [&]<GeluApprox A>() {
      if (xt.numel() >= kWideFrom)
        target.launch({}, gelu<E, A, kWideTile>, yt.partition({kWideTile}), xt);
      else
        target.launch({}, gelu<E, A, kTile>, yt.partition({kTile}), xt);
    });
  });
}

void launch_gelu_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x,
                          GeluApprox approximate) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    with_gelu_approx(approximate, [&]<GeluApprox A>() {
      target.launch({}, gelu_backward<E, A, kTile>, Tensor<E>(dx).partition({kTile}), Tensor<E>(dy), Tensor<E>(x));
    });
  });
}

const op::OpSpec gelu_op{
    .name = "gelu",
    .family = "elementwise",
    .doc = "y = gelu(x) elementwise in the form `approximate` names, computed in the dtype (as TileGym's).",
    .provenance = "TileGym src/tilegym/ops/cutile/activation/gelu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[N]").flat().like_input("x"), op::in("x", "E[N]").flat()},
    .scalars = {op::choice("approximate", gelu_approximations, "none")
                    .described("tanh: x/2 (1 + tanh u), u = sqrt(2/pi) (x + 0.044715 x^3); none: the same with "
                               "tanh u taken as 2 sigmoid(2u) - 1, TileGym's cutile 'none' (within 5e-4 of erf's "
                               "GELU)")},
    .launch = op::bind<launch_gelu>(),
    .backward = "gelu_backward",
    .parity = {{"gelu.forward", "gelu", "N=524288 E=f16 approximate=tanh"}},
    .configurations = {"N={8192,16777216} E={f32,f16,bf16} approximate={none,tanh}"},
    .tilegym = {.name = "gelu", .signature = "input, approximate='none'", .renames = "x=input"},
};

const op::OpSpec gelu_backward_op{
    .name = "gelu_backward",
    .family = "elementwise",
    .doc = "dx = dy * gelu'(x) elementwise, computed in f32: for tanh the derivative of its forward; for none "
           "Phi~(x) + x phi(x), Phi~ the forward's tanh-form CDF and phi the Gaussian density, as TileGym "
           "differentiates it.",
    .provenance = "TileGym src/tilegym/ops/cutile/activation/gelu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("dx", "E[N]").flat().like_input("x"), op::in("dy", "E[N]").flat(), op::in("x", "E[N]").flat()},
    .scalars = {op::choice("approximate", gelu_approximations, "none")},
    .launch = op::bind<launch_gelu_backward>(),
    .parity = {{"gelu.backward", "gelu_backward", "N=524288 E=f16 approximate=tanh"}},
    .configurations = {"N=8192 E={f32,f16,bf16} approximate={none,tanh}"},
};

const op::Registration registrations[] = {op::Registration{gelu_op}, op::Registration{gelu_backward_op}};

}  // namespace cutile::kernels
