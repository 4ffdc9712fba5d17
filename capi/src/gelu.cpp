// cutile_cpp_gelu, cutile_cpp_gelu_backward: kernels/activation/gelu.hpp, one instance per dtype, form
// and tile width.
#include "activation.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

// TileGym's widths: 4096 for forwards of at least 2^24 elements (memory-bound), else 1024.
constexpr int64_t kTile = 1024, kWideTile = 4096, kWideFrom = int64_t{1} << 24;

template <Element E, kernels::GeluApprox A>
void launch_gelu(const Tensor<E>& y, const Tensor<E>& x, const LaunchOptions& options) {
  if (x.numel() >= kWideFrom)
    launch(options, kernels::gelu<E, A, kWideTile>, y.partition({kWideTile}), x);
  else
    launch(options, kernels::gelu<E, A, kTile>, y.partition({kTile}), x);
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_gelu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                   int32_t approximate, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  using cutile::kernels::GeluApprox;
  return guarded("cutile_cpp_gelu", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 1);
    check_rank(in, 1);
    check_same_shape(out, in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    const GeluApprox form = activation::gelu_approx(approximate);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> yt(lend(out, placement)), xt(lend(in, placement));
      if (form == GeluApprox::tanh)
        launch_gelu<E, GeluApprox::tanh>(yt, xt, options);
      else
        launch_gelu<E, GeluApprox::none>(yt, xt, options);
    });
  });
}

extern "C" int32_t cutile_cpp_gelu_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                            const cutile_cpp_tensor* x, int32_t approximate,
                                            int32_t device_id, void* stream) {
  using namespace cutile::capi;
  using cutile::kernels::GeluApprox;
  return guarded("cutile_cpp_gelu_backward", [&] {
    const auto tensors = check_descriptors({{"dx", dx, true}, {"dy", dy, false}, {"x", x, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 1);
    check_same_shape(tensors[0], tensors[1]);
    check_same_shape(tensors[0], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    const GeluApprox form = activation::gelu_approx(approximate);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> dxt(lend(tensors[0], placement)), dyt(lend(tensors[1], placement)),
          xt(lend(tensors[2], placement));
      constexpr int64_t tile = kTile;  // TileGym's backward width
      if (form == GeluApprox::tanh)
        cutile::launch(options, cutile::kernels::gelu_backward<E, GeluApprox::tanh, tile>,
                       dxt.partition({tile}), dyt, xt);
      else
        cutile::launch(options, cutile::kernels::gelu_backward<E, GeluApprox::none, tile>,
                       dxt.partition({tile}), dyt, xt);
    });
  });
}
