// cutile_cpp_silu_and_mul, cutile_cpp_silu_and_mul_backward: kernels/activation/silu_and_mul.hpp, one
// instance per dtype and power-of-two row tile.
#include "activation/silu_and_mul.hpp"
#include "activation.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinTile = 64, kMaxTile = 16384;

// TileGym's launch hints for sm_90 by the bytes of one row tile (its autotuner then picks occupancy,
// which is left to the compiler here).
template <Element E>
LaunchOptions options_for(int64_t tile, const Placement& placement) {
  LaunchOptions options = placement.launch_options();
  const int64_t bytes = tile * static_cast<int64_t>(sizeof(E));
  options.hints.num_ctas = bytes <= 8192 ? 1 : 2;
  options.hints.num_worker_warps = bytes <= 2048 ? 4 : 8;
  return options;
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_silu_and_mul(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                           int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_silu_and_mul", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 2);
    check_rank(in, 2);
    activation::check_half_of(out, in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (out.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> yt(lend(out, placement));
      const cutile::Tensor<E> xt(lend(in, placement));
      activation::with_pow2_tile<kMinTile, kMaxTile>(
          out.shape[1], [&]<int64_t T>(std::integral_constant<int64_t, T>) {
            cutile::launch(options_for<E>(T, placement), cutile::kernels::silu_and_mul<E, T>,
                           yt.partition({1, T}), xt);
          });
    });
  });
}

extern "C" int32_t cutile_cpp_silu_and_mul_backward(const cutile_cpp_tensor* dx, const cutile_cpp_tensor* dy,
                                                    const cutile_cpp_tensor* x, int32_t device_id,
                                                    void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_silu_and_mul_backward", [&] {
    const auto tensors = check_descriptors({{"dx", dx, true}, {"dy", dy, false}, {"x", x, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 2);
    check_same_shape(tensors[0], tensors[2]);
    activation::check_half_of(tensors[1], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[1].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const auto pairs = activation::as_half_pairs(cutile::Tensor<E>(lend(tensors[0], placement)));
      const cutile::Tensor<E> dyt(lend(tensors[1], placement));
      const cutile::Tensor<E> xt(lend(tensors[2], placement));
      activation::with_pow2_tile<kMinTile, kMaxTile>(
          tensors[1].shape[1], [&]<int64_t T>(std::integral_constant<int64_t, T>) {
            cutile::launch(options_for<E>(T, placement), cutile::kernels::silu_and_mul_backward<E, T>,
                           pairs.partition({1, 2, T}), dyt, xt);
          });
    });
  });
}
