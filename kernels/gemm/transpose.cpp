// transpose, transpose_backward: the descriptions and launcher of transpose.hpp; the backward of a
// transpose is the transpose of the gradient, so both ops launch the one kernel.
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "gemm/transpose.hpp"

namespace cutile::kernels {
namespace {

void launch_transpose_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy) {
  launch_transpose(target, dx, dy);
}

}  // namespace

void launch_transpose(op::Target& target, const AnyTensor& y, const AnyTensor& x) {
  const bool large = x.shape()[0] >= 4096 && x.shape()[1] >= 4096;
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> yt(y), xt(x);
    if (large && !std::is_same_v<E, float>)
      return target.launch({}, transpose<E, 128, 128>, yt.partition({128, 128}), xt);
    target.launch({}, transpose<E, 64, 64>, yt.partition({64, 64}), xt);
  });
}

const op::OpSpec transpose_op{
    .name = "transpose",
    .family = "gemm",
    .doc = "y = x^T: y[n, m] = x[m, n].",
    .provenance = "TileGym src/tilegym/ops/cutile/transpose.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[N, M]"), op::in("x", "E[M, N]")},
    .launch = op::bind<launch_transpose>(),
    .backward = "transpose_backward",
    .parity = {{"transpose.transpose", "transpose", "M=4096 N=4096 E=bf16"}},
    .configurations = {"M={100,5000} N={70,4096} E={f32,f16,bf16}"},
    .tilegym = {.name = "transpose",
                .signature = "inp, out=None, static_persistent=None, **kwargs",
                .renames = "x=inp, y=out",
                .ignored = "static_persistent"},
};

const op::OpSpec transpose_backward_op{
    .name = "transpose_backward",
    .family = "gemm",
    .doc = "The backward of transpose: dx = dy^T.",
    .provenance = "TileGym src/tilegym/ops/cutile/transpose.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("dx", "E[M, N]"), op::in("dy", "E[N, M]")},
    .launch = op::bind<launch_transpose_backward>(),
};

const op::Registration registrations[] = {op::Registration{transpose_op}, op::Registration{transpose_backward_op}};

}  // namespace cutile::kernels
