// swiglu, swiglu_backward: the descriptions and launchers of swiglu.hpp, one instance per dtype and
// power-of-two row tile.
#include "activation/swiglu.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMinTile = 64, kMaxTile = 16384;

}  // namespace

void launch_swiglu(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b) {
  LaunchOptions options;
  options.hints.occupancy = 1;  // TileGym's kernel hints
  options.hints.num_worker_warps = 8;
  op::with_float_element(a.element_type(), [&]<class E>() {
    const Tensor<E> out(c);
    op::with_pow2<kMinTile, kMaxTile>(out.shape()[1], [&]<int64_t TILE>() {
      target.launch(options, swiglu<E, TILE>, out.partition({1, TILE}), Tensor<E>(a), Tensor<E>(b));
    });
  });
}

void launch_swiglu_backward(op::Target& target, const AnyTensor& da, const AnyTensor& db, const AnyTensor& dc,
                            const AnyTensor& a, const AnyTensor& b) {
  // TileGym's width: split each row into ⌈SMs / rows⌉ pieces, so that few rows still fill the GPU.
  const int64_t rows = a.shape()[0], columns = a.shape()[1];
  const int64_t pieces = (target.sm_count() + rows - 1) / rows;
  op::with_float_element(a.element_type(), [&]<class E>() {
    op::with_pow2<kMinTile, kMaxTile>(columns / pieces, [&]<int64_t TILE>() {
      target.launch({}, swiglu_backward<E, TILE>, Tensor<E>(da).partition({1, TILE}),
                    Tensor<E>(db).partition({1, TILE}), Tensor<E>(dc), Tensor<E>(a), Tensor<E>(b));
    });
  });
}

const op::OpSpec swiglu_op{
    .name = "swiglu",
    .family = "elementwise",
    .doc = "c = silu(a) * b for a and b of one shape: silu in f32 (an approximate division flushing subnormals), "
           "rounded to the dtype, and the product taken in the dtype, as TileGym's.",
    .provenance = "TileGym src/tilegym/ops/cutile/swiglu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("c", "E[M, N]").rows(), op::in("a", "E[M, N]").rows(), op::in("b", "E[M, N]").rows()},
    .launch = op::bind<launch_swiglu>(),
    .backward = "swiglu_backward",
    .parity = {{"swiglu.forward", "swiglu", "M=16384 N=4096 E=f16"}},
    .configurations = {"M=64 N={40,100,200,500,1000,2000,4000,8000,20000} E={f32,f16,bf16}"},
};

const op::OpSpec swiglu_backward_op{
    .name = "swiglu_backward",
    .family = "elementwise",
    .doc = "da = dc * b * silu'(a), db = dc * silu(a), silu'(a) = s (1 + a (1 - s)) with s = sigmoid(a), computed in "
           "f32.",
    .provenance = "TileGym src/tilegym/ops/cutile/swiglu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("da", "E[M, N]").rows(), op::out("db", "E[M, N]").rows(), op::in("dc", "E[M, N]").rows(),
                op::in("a", "E[M, N]").rows(), op::in("b", "E[M, N]").rows()},
    .launch = op::bind<launch_swiglu_backward>(),
    .parity = {{"swiglu.backward", "swiglu_backward", "M=16384 N=4096 E=f16"}},
    // 200 rows take one piece each of 132 SMs: the tiles follow N as the forward's.
    .configurations = {"M=200 N={40,100,200,500,1000,2000,4000,8000,20000} E={f32,f16,bf16}"},
};

const op::Registration registrations[] = {op::Registration{swiglu_op}, op::Registration{swiglu_backward_op}};

}  // namespace cutile::kernels
