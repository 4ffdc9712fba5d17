// silu_and_mul, silu_and_mul_backward: the descriptions and launchers of silu_and_mul.hpp, one instance per
// dtype and power-of-two row tile.
#include "activation/silu_and_mul.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMinTile = 64, kMaxTile = 16384;

// TileGym's launch hints for sm_90 by the bytes of one row tile (its autotuner then picks occupancy,
// which is left to the compiler here).
template <Element E, int64_t TILE>
LaunchOptions row_options() {
  constexpr int64_t bytes = TILE * static_cast<int64_t>(sizeof(E));
  LaunchOptions options;
  options.hints.num_ctas = bytes <= 8192 ? 1 : 2;
  options.hints.num_worker_warps = bytes <= 2048 ? 4 : 8;
  return options;
}

}  // namespace

void launch_silu_and_mul(op::Target& target, const AnyTensor& y, const AnyTensor& x) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> yt(y), xt(x);
    op::with_pow2<kMinTile, kMaxTile>(yt.shape()[1], [&]<int64_t TILE>() {
      target.launch(row_options<E, TILE>(), silu_and_mul<E, TILE>, yt.partition({1, TILE}), xt);
    });
  });
}

void launch_silu_and_mul_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> dxt(dx), dyt(dy), xt(x);
    const int64_t m = dyt.shape()[0], h = dyt.shape()[1];
    // dx (M, 2H) as (M, 2, H): [r, k, c] is dx[r, k·H + c], both halves of a column in one tile.
    const Tensor<E> pairs = dxt.as_strided({m, 2, h}, {dxt.strides()[0], h * dxt.strides()[1], dxt.strides()[1]});
    op::with_pow2<kMinTile, kMaxTile>(h, [&]<int64_t TILE>() {
      target.launch(row_options<E, TILE>(), silu_and_mul_backward<E, TILE>, pairs.partition({1, 2, TILE}), dyt, xt);
    });
  });
}

const op::OpSpec silu_and_mul_op{
    .name = "silu_and_mul",
    .family = "elementwise",
    .doc = "y = silu(a) * b for the halves a = x[:, :H] and b = x[:, H:] of each row, computed in f32 (the sigmoid "
           "through exp2 with subnormals flushed and an approximate division, as TileGym's).",
    .provenance = "TileGym src/tilegym/ops/cutile/silu_and_mul.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, H]").rows(), op::in("x", "E[M, 2*H]").rows()},
    .launch = op::bind<launch_silu_and_mul>(),
    .backward = "silu_and_mul_backward",
    .parity = {{"silu_and_mul.forward", "silu_and_mul", "M=4096 H=2048 E=f16"}},
    .configurations = {"M=64 H={40,100,200,500,1000,2000,4000,8000,20000} E={f32,f16,bf16}"},
    .tilegym = {.name = "silu_and_mul", .signature = "input, out=None", .renames = "x=input, y=out"},
};

const op::OpSpec silu_and_mul_backward_op{
    .name = "silu_and_mul_backward",
    .family = "elementwise",
    .doc = "dx[:, :H] = dy * b * silu'(a), dx[:, H:] = dy * silu(a), for a and b as in silu_and_mul, computed in "
           "f32.",
    .provenance = "TileGym src/tilegym/ops/cutile/silu_and_mul.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("dx", "E[M, 2*H]").rows(), op::in("dy", "E[M, H]").rows(), op::in("x", "E[M, 2*H]").rows()},
    .launch = op::bind<launch_silu_and_mul_backward>(),
    .parity = {{"silu_and_mul.backward", "silu_and_mul_backward", "M=4096 H=2048 E=f16"}},
    .configurations = {"M=64 H={40,100,200,500,1000,2000,4000,8000,20000} E={f32,f16,bf16}"},
};

const op::Registration registrations[] = {op::Registration{silu_and_mul_op},
                                          op::Registration{silu_and_mul_backward_op}};

}  // namespace cutile::kernels
