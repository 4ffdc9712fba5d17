// geglu, geglu_backward: the descriptions and launchers of geglu.hpp, one instance per dtype, form and
// (BM, BN) tile.
#include "activation/geglu.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kTileElements = 1024;

// Calls `body.template operator()<BM, BN>()` with the tile of rows of `columns`: BM · BN = 1024 and BN the
// smallest of 16, 64, 256, 1024 that covers the row (1024 for wider rows), so that short rows stack into
// one block instead of leaving most of a row tile empty.
template <class Body>
void with_tile(int64_t columns, Body&& body) {
  auto call = [&]<int64_t BN>() { body.template operator()<kTileElements / BN, BN>(); };
  if (columns <= 16) return call.template operator()<16>();
  if (columns <= 64) return call.template operator()<64>();
  if (columns <= 256) return call.template operator()<256>();
  call.template operator()<1024>();
}

// The halves x[:, :N] and x[:, N:] of an (M, 2N) tensor, as (M, N) views.
template <Element E>
std::pair<Tensor<E>, Tensor<E>> halves(const Tensor<E>& x) {
  const int64_t m = x.shape()[0], n = x.shape()[1] / 2;
  return {x.as_strided({m, n}, x.strides(), 0), x.as_strided({m, n}, x.strides(), n * x.strides()[1])};
}

}  // namespace

void launch_geglu(op::Target& target, const AnyTensor& y, const AnyTensor& x, GeluApprox approximate) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> yt(y);
    const auto [a, b] = halves(Tensor<E>(x));
    with_gelu_approx(approximate, [&]<GeluApprox A>() {
      with_tile(yt.shape()[1], [&]<int64_t BM, int64_t BN>() {
        target.launch({}, geglu<E, A, BM, BN>, yt.partition({BM, BN}), a, b);
      });
    });
  });
}

void launch_geglu_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x,
                           GeluApprox approximate) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> dxt(dx), dyt(dy);
    const int64_t m = dyt.shape()[0], n = dyt.shape()[1];
    // dx (M, 2N) as (M, 2, N): [r, k, c] is dx[r, k·N + c], both halves of a column in one tile.
    const Tensor<E> pairs = dxt.as_strided({m, 2, n}, {dxt.strides()[0], n * dxt.strides()[1], dxt.strides()[1]});
    const auto [a, b] = halves(Tensor<E>(x));
    with_gelu_approx(approximate, [&]<GeluApprox A>() {
      with_tile(n, [&]<int64_t BM, int64_t BN>() {
        target.launch({}, geglu_backward<E, A, BM, BN>, pairs.partition({BM, 2, BN}), dyt, a, b);
      });
    });
  });
}

const op::OpSpec geglu_op{
    .name = "geglu",
    .family = "elementwise",
    .doc = "y = a * gelu(b) for the halves a = x[:, :N] and b = x[:, N:] of each row, gelu in the form `approximate` "
           "names (as in gelu), computed in f32. TileGym's geglu over `dim` is this op on x reshaped to "
           "(prod(shape[:dim]), prod(shape[dim:])).",
    .provenance = "TileGym src/tilegym/ops/cutile/activation/geglu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").rows(), op::in("x", "E[M, 2*N]").rows()},
    .scalars = {op::choice("approximate", gelu_approximations, "none")},
    .launch = op::bind<launch_geglu>(),
    .backward = "geglu_backward",
    .parity = {{"geglu.forward", "geglu", "M=262144 N=64 E=f16 approximate=none"}},
    .configurations = {"M=512 N={10,64,200,1500} E={f32,f16,bf16} approximate={none,tanh}"},
};

const op::OpSpec geglu_backward_op{
    .name = "geglu_backward",
    .family = "elementwise",
    .doc = "dx[:, :N] = dy * gelu(b), dx[:, N:] = dy * a * gelu'(b), for a, b and the form as in geglu (gelu' as in "
           "gelu_backward), computed in f32.",
    .provenance = "TileGym src/tilegym/ops/cutile/activation/geglu.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("dx", "E[M, 2*N]").rows(), op::in("dy", "E[M, N]").rows(), op::in("x", "E[M, 2*N]").rows()},
    .scalars = {op::choice("approximate", gelu_approximations, "none")},
    .launch = op::bind<launch_geglu_backward>(),
    .parity = {{"geglu.backward", "geglu_backward", "M=262144 N=64 E=f16 approximate=none"}},
    .configurations = {"M=512 N={10,64,200,1500} E={f32,f16,bf16} approximate={none,tanh}"},
};

const op::Registration registrations[] = {op::Registration{geglu_op}, op::Registration{geglu_backward_op}};

}  // namespace cutile::kernels
