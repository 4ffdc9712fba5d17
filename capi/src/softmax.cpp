// cutile_cpp_softmax: kernels/normalization/softmax.hpp, one instance per dtype and power-of-two row tile.
#include "cutile/launch.hpp"
#include "dispatch.hpp"
#include "normalization/softmax.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinTile = 16;
constexpr int64_t kMaxColumns = 16384;  // one row is one tile, held by one tile block

// The smallest instantiated TILE_N ≥ `columns`.
template <Element E, int64_t TILE_N = kMinTile>
void launch_softmax(const Tensor<E>& y, const Tensor<E>& x, int64_t columns, const LaunchOptions& options) {
  if constexpr (TILE_N < kMaxColumns) {
    if (columns > TILE_N) return launch_softmax<E, TILE_N * 2>(y, x, columns, options);
  }
  launch(options, kernels::softmax_row<E, TILE_N>, y.partition({1, TILE_N}), x);
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_softmax(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t device_id,
                                      void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_softmax", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 2);
    check_rank(in, 2);
    check_same_shape(out, in);
    if (in.shape[1] > kMaxColumns)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE, in.describe() + ": rows of " + std::to_string(in.shape[1]) +
                                                             " elements exceed the " + std::to_string(kMaxColumns) +
                                                             " the one-tile-per-row kernel holds");
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options;
    options.stream = placement.stream;
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      launch_softmax<E>(cutile::Tensor<E>(borrow(out, placement)), cutile::Tensor<E>(borrow(in, placement)),
                        in.shape[1], options);
    });
  });
}
