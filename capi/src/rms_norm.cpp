// cutile_cpp_rms_norm, cutile_cpp_rms_norm_backward: kernels/normalization/rms_norm.hpp, one instance per
// dtype and power-of-two row tile, with TileGym's tile-size heuristics.
#include "normalization/rms_norm.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinTile = 16;
constexpr int64_t kMaxColumns = 32768;  // a row is at most one (reloaded) row tile

// TileGym's static persistent rows per tile: more rows for short rows, fewer for long ones.
template <int64_t TN>
constexpr int64_t persistent_rows = TN <= 1024    ? 16
                                    : TN >= 16384 ? 2
                                                  : 4;

// The static persistent kernel runs 8 worker warps, as tileiras compiles cuTile Python's (384 threads,
// 168 registers, the x tile's TMA loads multi-buffered). Left to itself, tileiras gives ours, whose loop
// carries the y and rstd token chains, 4 (256 threads, 255 registers; at 16384 columns spills and one x
// buffer). docs/porting-log.md, normalization.
LaunchOptions persistent_options(LaunchOptions options) {
  options.hints.num_worker_warps = 8;
  return options;
}

struct Arguments {
  const CheckedTensor *y, *rstd, *x, *w;
  float eps, offset;
};

template <Element E>
struct Borrowed {
  Tensor<E> y, x, w;
  Tensor<float> rstd;
};

// The smallest instantiated column tile ≥ `columns`, then `body(std::integral_constant<TN>)`.
template <int64_t TN = kMinTile, class Body>
void with_row_tile(int64_t columns, Body&& body) {
  if constexpr (TN < kMaxColumns) {
    if (columns > TN) return with_row_tile<TN * 2>(columns, std::forward<Body>(body));
  }
  body(std::integral_constant<int64_t, TN>{});
}

template <Element E>
void launch_forward(const Borrowed<E>& t, int64_t columns, int32_t mode, float eps, float offset,
                    const LaunchOptions& options) {
  with_row_tile(columns, [&]<int64_t TN>(std::integral_constant<int64_t, TN>) {
    switch (mode) {
      case CUTILE_CPP_RMS_NORM_STATIC_PERSISTENT: {
        constexpr int64_t TM = persistent_rows<TN>;
        launch(persistent_options(options), kernels::rms_norm_static_persistent<E, TM, TN>,
               t.y.partition({TM, TN}), t.rstd.partition({TM}), t.x, t.w, eps, offset);
        return;
      }
      case CUTILE_CPP_RMS_NORM_MULTI_WAVE_RELOAD: {
        constexpr int64_t TILE = std::min<int64_t>(4096 / sizeof(E), TN);  // TileGym's MAX_FUSED_SIZE
        launch(options, kernels::rms_norm_row_reload<E, TN, TILE>, t.y.partition({1, TN}),
               t.rstd.partition({1}), t.x, t.w, eps, offset);
        return;
      }
      default:
        launch(options, kernels::rms_norm_row_cached<E, TN>, t.y.partition({1, TN}), t.rstd.partition({1}),
               t.x, t.w, eps, offset);
    }
  });
}

// TileGym's backward rows per tile: 4 up to 2048 columns (4096 with at least 8192 rows), else 1.
template <Element E>
void launch_backward(const Tensor<E>& dx, const Tensor<float>& dw_partial, const Tensor<E>& dy,
                     const Tensor<E>& x, const Tensor<E>& w, const Tensor<float>& rstd, int64_t rows,
                     int64_t columns, const LaunchOptions& options) {
  with_row_tile(columns, [&]<int64_t TN>(std::integral_constant<int64_t, TN>) {
    auto run = [&]<int64_t TM>(std::integral_constant<int64_t, TM>) {
      launch(options, kernels::rms_norm_backward<E, TM, TN>, dx.partition({TM, TN}),
             dw_partial.partition({1, TN}), dy, x, w, rstd);
    };
    if (TN <= 2048 || (TN <= 4096 && rows >= 8192))
      run(std::integral_constant<int64_t, 4>{});
    else
      run(std::integral_constant<int64_t, 1>{});
  });
}

void check_columns(const CheckedTensor& x) {
  if (x.shape[1] > kMaxColumns)
    throw AbiError(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE,
                   x.describe() + ": rows of " + std::to_string(x.shape[1]) + " elements exceed the " +
                       std::to_string(kMaxColumns) + " the row-tile kernels hold");
}

void check_extent(const CheckedTensor& t, int64_t expected, const CheckedTensor& of, const char* what) {
  if (t.shape[0] != expected)
    throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH, t.describe() + " must have " + std::to_string(expected) +
                                                        " " + what + " (those of " + of.describe() + ")");
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_rms_norm(const cutile_cpp_tensor* y, const cutile_cpp_tensor* rstd,
                                       const cutile_cpp_tensor* x, const cutile_cpp_tensor* weight,
                                       double eps, double offset, int32_t mode, int32_t device_id,
                                       void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_rms_norm", [&] {
    const auto tensors = check_descriptors(
        {{"y", y, true}, {"rstd", rstd, true}, {"x", x, false}, {"weight", weight, false}}, device_id);
    const CheckedTensor &out = tensors[0], &r = tensors[1], &in = tensors[2], &w = tensors[3];
    if (mode < CUTILE_CPP_RMS_NORM_AUTO || mode > CUTILE_CPP_RMS_NORM_MULTI_WAVE_CACHED)
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT,
                     "mode " + std::to_string(mode) + " is not a cutile_cpp_rms_norm_mode");
    check_dtypes(std::vector<CheckedTensor>{out, in, w}, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_dtypes(std::vector<CheckedTensor>{r}, {CUTILE_CPP_F32});
    check_rank(out, 2);
    check_rank(r, 1);
    check_rank(in, 2);
    check_rank(w, 1);
    check_same_shape(out, in);
    check_extent(w, in.shape[1], in, "elements, the row length");
    check_extent(r, in.shape[0], in, "elements, one per row");
    check_columns(in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    if (mode == CUTILE_CPP_RMS_NORM_AUTO)  // TileGym: persistent once the rows take more than two waves
      mode = in.shape[0] > 2 * static_cast<int64_t>(placement.device.sm_count())
                 ? CUTILE_CPP_RMS_NORM_STATIC_PERSISTENT
                 : CUTILE_CPP_RMS_NORM_MULTI_WAVE_RELOAD;
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      const Borrowed<E> t{cutile::Tensor<E>(lend(out, placement)), cutile::Tensor<E>(lend(in, placement)),
                          cutile::Tensor<E>(lend(w, placement)),
                          cutile::Tensor<float>(lend(r, placement))};
      launch_forward<E>(t, in.shape[1], mode, static_cast<float>(eps), static_cast<float>(offset), options);
    });
  });
}

extern "C" int32_t cutile_cpp_rms_norm_backward(const cutile_cpp_tensor* dx,
                                                const cutile_cpp_tensor* dw_partial,
                                                const cutile_cpp_tensor* dy, const cutile_cpp_tensor* x,
                                                const cutile_cpp_tensor* weight,
                                                const cutile_cpp_tensor* rstd, int32_t device_id,
                                                void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_rms_norm_backward", [&] {
    const auto tensors = check_descriptors({{"dx", dx, true},
                                            {"dw_partial", dw_partial, true},
                                            {"dy", dy, false},
                                            {"x", x, false},
                                            {"weight", weight, false},
                                            {"rstd", rstd, false}},
                                           device_id);
    const CheckedTensor &gx = tensors[0], &part = tensors[1], &gy = tensors[2], &in = tensors[3],
                        &w = tensors[4], &r = tensors[5];
    check_dtypes(std::vector<CheckedTensor>{gx, gy, in, w},
                 {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_dtypes(std::vector<CheckedTensor>{part, r}, {CUTILE_CPP_F32});
    check_rank(gx, 2);
    check_rank(part, 2);
    check_rank(gy, 2);
    check_rank(in, 2);
    check_rank(w, 1);
    check_rank(r, 1);
    check_same_shape(gx, in);
    check_same_shape(gy, in);
    check_extent(w, in.shape[1], in, "elements, the row length");
    check_extent(r, in.shape[0], in, "elements, one per row");
    check_columns(in);
    if (part.shape[0] < 1 || part.shape[1] < in.shape[1])
      throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH,
                     part.describe() + " must have at least one row (one per block) and " +
                         std::to_string(in.shape[1]) + " columns (those of " + in.describe() + ")");
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    options.hints.occupancy = 1;  // TileGym's `occupancy=1`: one large persistent block per SM
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      launch_backward<E>(cutile::Tensor<E>(lend(gx, placement)),
                         cutile::Tensor<float>(lend(part, placement)),
                         cutile::Tensor<E>(lend(gy, placement)), cutile::Tensor<E>(lend(in, placement)),
                         cutile::Tensor<E>(lend(w, placement)), cutile::Tensor<float>(lend(r, placement)),
                         in.shape[0], in.shape[1], options);
    });
  });
}
