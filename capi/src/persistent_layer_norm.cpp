// cutile_cpp_persistent_layer_norm(_given_stats): kernels/normalization/persistent_layer_norm.hpp, one
// instance per dtype and power-of-two column tile BD, a grid of min(SMs, row tiles). Rows per tile and
// worker warps are those TileGym's autotuning picks on the H200 (bench/results/
// 2026-11-30_h200_ops_quick_autotune.json): 8 rows and 4 warps at BD 1024, 2 rows and 8 warps at BD 16384;
// in general at most 32768 elements per tile, 4 warps up to BD 1024. Short rows (BD ≤ 256) take 32 rows
// and 8 warps, the largest of TileGym's candidates: 8 rows of 256 left the H200 at 0.61× cuTile Python.
// (TileGym's untuned default, 8 rows and 8 warps, spills at BD 16384: 3.6× slower.) Rows of at most 16384
// elements (TileGym tests D ≤ 10000).
#include <algorithm>

#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "normalization/persistent_layer_norm.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

// Rows per tile of a BD-column tile: 32 for short rows, else 8, fewer where the (rows, BD) tile would pass
// 32768 elements.
constexpr int64_t kShortRow = 256;
constexpr int64_t rows_for(int64_t bd) {
  return bd <= kShortRow ? 32 : std::clamp<int64_t>(32768 / bd, 1, 8);
}
constexpr int64_t kMinTile = 16;
// An 8 × 32768 tile takes tileiras past two minutes to compile; 8 × 16384 is the largest shipped.
constexpr int64_t kMaxColumns = 16384;

template <int64_t BD = kMinTile, class Body>
void with_column_tile(int64_t columns, Body&& body) {
  if constexpr (BD < kMaxColumns) {
    if (columns > BD) return with_column_tile<BD * 2>(columns, std::forward<Body>(body));
  }
  body(std::integral_constant<int64_t, BD>{});
}

LaunchOptions options_on(const Placement& placement, int64_t bd) {
  LaunchOptions options = placement.launch_options();
  options.hints.num_ctas = 1;
  options.hints.num_worker_warps = bd <= kShortRow || bd > 1024 ? 8 : 4;
  return options;  // the grid: one block per SM, at most one per row tile (the OutTiles default)
}

void check_extent(const CheckedTensor& t, int64_t expected, const CheckedTensor& of, const char* what) {
  if (t.shape[0] != expected)
    throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH, t.describe() + " must have " + std::to_string(expected) +
                                                        " " + what + " (those of " + of.describe() + ")");
}

// Dtypes, ranks and shapes of (y, x, weight, bias) and the (mean, rstd) pair.
void check_layer_norm(const CheckedTensor& y, const CheckedTensor& x, const CheckedTensor& w,
                      const CheckedTensor& b, const CheckedTensor& mean, const CheckedTensor& rstd) {
  check_dtypes(std::vector<CheckedTensor>{y, x, w, b}, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
  check_dtypes(std::vector<CheckedTensor>{mean, rstd}, {CUTILE_CPP_F32});
  check_rank(y, 2);
  check_rank(x, 2);
  check_rank(w, 1);
  check_rank(b, 1);
  check_rank(mean, 1);
  check_rank(rstd, 1);
  check_same_shape(y, x);
  check_extent(w, x.shape[1], x, "elements, the row length");
  check_extent(b, x.shape[1], x, "elements, the row length");
  check_extent(mean, x.shape[0], x, "elements, one per row");
  check_extent(rstd, x.shape[0], x, "elements, one per row");
  if (x.shape[1] > kMaxColumns)
    throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                   x.describe() + ": rows of " + std::to_string(x.shape[1]) + " elements exceed the " +
                       std::to_string(kMaxColumns) + " the persistent kernel supports");
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_persistent_layer_norm(const cutile_cpp_tensor* y, const cutile_cpp_tensor* mean,
                                                    const cutile_cpp_tensor* rstd, const cutile_cpp_tensor* x,
                                                    const cutile_cpp_tensor* weight,
                                                    const cutile_cpp_tensor* bias, double eps,
                                                    int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_persistent_layer_norm", [&] {
    const auto tensors = check_descriptors({{"y", y, true},
                                            {"mean", mean, true},
                                            {"rstd", rstd, true},
                                            {"x", x, false},
                                            {"weight", weight, false},
                                            {"bias", bias, false}},
                                           device_id);
    check_layer_norm(tensors[0], tensors[3], tensors[4], tensors[5], tensors[1], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[3].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    dispatch_float(tensors[3].dtype, [&]<class E>(std::type_identity<E>) {
      auto t = [&](int i) { return cutile::Tensor<E>(lend(tensors[static_cast<size_t>(i)], placement)); };
      auto f = [&](int i) {
        return cutile::Tensor<float>(lend(tensors[static_cast<size_t>(i)], placement));
      };
      with_column_tile(tensors[3].shape[1], [&]<int64_t BD>(std::integral_constant<int64_t, BD>) {
        constexpr int64_t ROWS = rows_for(BD);
        launch(options_on(placement, BD), cutile::kernels::persistent_layer_norm<E, ROWS, BD>,
               t(0).partition({ROWS, BD}), f(1).partition({ROWS}), f(2).partition({ROWS}), t(3), t(4), t(5),
               static_cast<float>(eps));
      });
    });
  });
}

extern "C" int32_t cutile_cpp_persistent_layer_norm_given_stats(
    const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, const cutile_cpp_tensor* weight,
    const cutile_cpp_tensor* bias, const cutile_cpp_tensor* mean, const cutile_cpp_tensor* rstd,
    int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_persistent_layer_norm_given_stats", [&] {
    const auto tensors = check_descriptors({{"y", y, true},
                                            {"x", x, false},
                                            {"weight", weight, false},
                                            {"bias", bias, false},
                                            {"mean", mean, false},
                                            {"rstd", rstd, false}},
                                           device_id);
    check_layer_norm(tensors[0], tensors[1], tensors[2], tensors[3], tensors[4], tensors[5]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[1].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    dispatch_float(tensors[1].dtype, [&]<class E>(std::type_identity<E>) {
      auto t = [&](int i) { return cutile::Tensor<E>(lend(tensors[static_cast<size_t>(i)], placement)); };
      auto f = [&](int i) {
        return cutile::Tensor<float>(lend(tensors[static_cast<size_t>(i)], placement));
      };
      with_column_tile(tensors[1].shape[1], [&]<int64_t BD>(std::integral_constant<int64_t, BD>) {
        constexpr int64_t ROWS = rows_for(BD);
        launch(options_on(placement, BD), cutile::kernels::persistent_layer_norm_given_stats<E, ROWS, BD>,
               t(0).partition({ROWS, BD}), t(1), t(2), t(3), f(4), f(5));
      });
    });
  });
}
