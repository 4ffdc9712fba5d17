// cutile_cpp_geglu, cutile_cpp_geglu_backward: kernels/activation/geglu.hpp, one instance per dtype, form
// and (BM, BN) tile.
#include "activation/geglu.hpp"
#include "activation.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

using kernels::GeluApprox;

constexpr int64_t kTileElements = 1024;

// (BM, BN) with BM · BN = 1024 and BN the smallest of 16, 64, 256, 1024 that covers `columns` (1024 for
// wider rows): short rows stack into one block instead of leaving most of a row tile empty.
template <class Body>
void with_tile(int64_t columns, Body&& body) {
  auto call = [&]<int64_t BN>() {
    body(std::integral_constant<int64_t, kTileElements / BN>{}, std::integral_constant<int64_t, BN>{});
  };
  if (columns <= 16) return call.template operator()<16>();
  if (columns <= 64) return call.template operator()<64>();
  if (columns <= 256) return call.template operator()<256>();
  call.template operator()<1024>();
}

template <class Body>
void with_form(GeluApprox form, Body&& body) {
  if (form == GeluApprox::tanh)
    body(std::integral_constant<GeluApprox, GeluApprox::tanh>{});
  else
    body(std::integral_constant<GeluApprox, GeluApprox::none>{});
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_geglu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                    int32_t approximate, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_geglu", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 2);
    check_rank(in, 2);
    activation::check_half_of(out, in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    const GeluApprox form = activation::gelu_approx(approximate);
    if (out.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> yt(lend(out, placement));
      const auto [a, b] = activation::halves(cutile::Tensor<E>(lend(in, placement)));
      with_form(form, [&]<GeluApprox A>(std::integral_constant<GeluApprox, A>) {
        with_tile(out.shape[1], [&]<int64_t BM, int64_t BN>(std::integral_constant<int64_t, BM>,
                                                            std::integral_constant<int64_t, BN>) {
          cutile::launch(options, cutile::kernels::geglu<E, A, BM, BN>, yt.partition({BM, BN}), a, b);
        });
      });
    });
  });
}

extern "C" int32_t cutile_cpp_geglu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                             const cutile_cpp_tensor* x, int32_t approximate,
                                             int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_geglu_backward", [&] {
    const auto tensors = check_descriptors({{"dx", dx, true}, {"dy", dy, false}, {"x", x, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 2);
    check_same_shape(tensors[0], tensors[2]);
    activation::check_half_of(tensors[1], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    const GeluApprox form = activation::gelu_approx(approximate);
    if (tensors[1].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const auto pairs = activation::as_half_pairs(cutile::Tensor<E>(lend(tensors[0], placement)));
      const cutile::Tensor<E> dyt(lend(tensors[1], placement));
      const auto [a, b] = activation::halves(cutile::Tensor<E>(lend(tensors[2], placement)));
      with_form(form, [&]<GeluApprox A>(std::integral_constant<GeluApprox, A>) {
        with_tile(tensors[1].shape[1], [&]<int64_t BM, int64_t BN>(std::integral_constant<int64_t, BM>,
                                                                   std::integral_constant<int64_t, BN>) {
          cutile::launch(options, cutile::kernels::geglu_backward<E, A, BM, BN>, pairs.partition({BM, 2, BN}),
                         dyt, a, b);
        });
      });
    });
  });
}
