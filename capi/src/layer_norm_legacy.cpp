// cutile_cpp_layer_norm_legacy: kernels/normalization/layer_norm_legacy.hpp, one instance per dtype,
// power-of-two column tile (TileGym's largest power of two ≤ N, capped at 64 KiB of the element) and
// number of column tiles (1 when N is that power of two, with N baked in as TileGym bakes it, else 2).
#include <type_traits>

#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "normalization/layer_norm_legacy.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinBlock = 16;  // shorter rows take one 16-column pass

template <Element E>
constexpr int64_t max_columns = 65536 / static_cast<int64_t>(sizeof(E));

// BLOCK is TileGym's largest power of two ≤ N (at least kMinBlock); a second, ragged tile covers the rest.
template <Element E, int64_t BLOCK = kMinBlock>
void launch_layer_norm(const Tensor<E>& y, const Tensor<float>& mean, const Tensor<float>& rstd,
                       const Tensor<E>& x, const Tensor<E>& w, const Tensor<E>& b, float eps,
                       float weight_shift, const LaunchOptions& options) {
  auto run = [&]<int64_t TILES, int64_t COLS = dyn>(std::integral_constant<int64_t, TILES>,
                                                   std::integral_constant<int64_t, COLS> = {}) {
    launch(options, kernels::layer_norm_legacy<E, BLOCK, TILES, COLS>, y.partition({1, TILES * BLOCK}),
           mean.partition({1}), rstd.partition({1}), x, w, b, eps, weight_shift);
  };
  const int64_t n = x.shape()[1];
  if constexpr (BLOCK < max_columns<E>) {
    if (n >= 2 * BLOCK)
      return launch_layer_norm<E, BLOCK * 2>(y, mean, rstd, x, w, b, eps, weight_shift, options);
    if (n > BLOCK) return run(std::integral_constant<int64_t, 2>{});
  }
  if (n < BLOCK) return run(std::integral_constant<int64_t, 1>{});  // rows shorter than kMinBlock
  run(std::integral_constant<int64_t, 1>{}, std::integral_constant<int64_t, BLOCK>{});
}

void check_extent(const CheckedTensor& t, int64_t expected, const CheckedTensor& of, const char* what) {
  if (t.shape[0] != expected)
    throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH, t.describe() + " must have " + std::to_string(expected) +
                                                        " " + what + " (those of " + of.describe() + ")");
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_layer_norm_legacy(const cutile_cpp_tensor* y, const cutile_cpp_tensor* mean,
                                                const cutile_cpp_tensor* rstd, const cutile_cpp_tensor* x,
                                                const cutile_cpp_tensor* weight,
                                                const cutile_cpp_tensor* bias, double eps,
                                                double weight_shift, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_layer_norm_legacy", [&] {
    const auto tensors = check_descriptors({{"y", y, true},
                                            {"mean", mean, true},
                                            {"rstd", rstd, true},
                                            {"x", x, false},
                                            {"weight", weight, false},
                                            {"bias", bias, false}},
                                           device_id);
    const CheckedTensor &out = tensors[0], &mu = tensors[1], &r = tensors[2], &in = tensors[3],
                        &w = tensors[4], &b = tensors[5];
    check_dtypes(std::vector<CheckedTensor>{out, in, w, b},
                 {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_dtypes(std::vector<CheckedTensor>{mu, r}, {CUTILE_CPP_F32});
    check_rank(out, 2);
    check_rank(mu, 1);
    check_rank(r, 1);
    check_rank(in, 2);
    check_rank(w, 1);
    check_rank(b, 1);
    check_same_shape(out, in);
    check_extent(w, in.shape[1], in, "elements, the row length");
    check_extent(b, in.shape[1], in, "elements, the row length");
    check_extent(mu, in.shape[0], in, "elements, one per row");
    check_extent(r, in.shape[0], in, "elements, one per row");
    const int64_t limit = 65536 / element_size(in.dtype);
    if (in.shape[1] > limit)
      throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                     in.describe() + ": rows of " + std::to_string(in.shape[1]) + " elements exceed the " +
                         std::to_string(limit) + " (64 KiB) the kernel handles");
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    const cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      launch_layer_norm<E>(
          cutile::Tensor<E>(lend(out, placement)), cutile::Tensor<float>(lend(mu, placement)),
          cutile::Tensor<float>(lend(r, placement)), cutile::Tensor<E>(lend(in, placement)),
          cutile::Tensor<E>(lend(w, placement)), cutile::Tensor<E>(lend(b, placement)),
          static_cast<float>(eps), static_cast<float>(weight_shift), options);
    });
  });
}
