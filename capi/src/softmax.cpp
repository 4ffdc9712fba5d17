// cutile_cpp_softmax, cutile_cpp_softmax_variant: kernels/normalization/softmax.hpp, one instance per
// dtype, kernel and power-of-two row tile (and for the gather kernels, rows of exactly one tile with N
// baked in), picked at run time.
#include <algorithm>
#include <string>
#include <type_traits>

#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "normalization/softmax.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinTile = 16;
constexpr int64_t kMaxRowTile = 16384;  // the widest row one tile holds; longer rows go to the chunked kernel
constexpr int64_t kMaxChunk = 8192;     // TileGym's chunk cap (MAX_TILE_SIZE)

int64_t next_power_of_two(int64_t n) {
  int64_t p = kMinTile;
  while (p < n) p *= 2;
  return p;
}

// Calls body(std::integral_constant<int64_t, TILE>) for the instantiated TILE == tile.
template <int64_t TILE = kMinTile, class Body>
void with_tile(int64_t tile, Body&& body) {
  if constexpr (TILE < kMaxRowTile) {
    if (tile > TILE) return with_tile<TILE * 2>(tile, body);
  }
  body(std::integral_constant<int64_t, TILE>{});
}

// The grid of the persistent kernels: `occupancy` blocks per SM, at most one per row.
LaunchOptions persistent(LaunchOptions options, const Device& device, int occupancy, int64_t rows) {
  options.grid =
      std::array<int64_t, 3>{std::min<int64_t>(int64_t{device.sm_count()} * occupancy, rows), 1, 1};
  options.hints.occupancy = occupancy;
  return options;
}

template <Element E>
void launch_softmax(const Tensor<E>& y, const Tensor<E>& x, int64_t rows, int64_t columns,
                    cutile_cpp_softmax_kernel kernel, const Placement& placement) {
  LaunchOptions options = placement.launch_options();
  // One tile per row while it fits, as TileGym's kernels have; the chunked kernel for longer rows.
  if (kernel != CUTILE_CPP_SOFTMAX_CHUNKED && columns > kMaxRowTile) kernel = CUTILE_CPP_SOFTMAX_CHUNKED;
  const int64_t tile = next_power_of_two(columns);
  with_tile(kernel == CUTILE_CPP_SOFTMAX_CHUNKED ? std::min(tile, kMaxChunk) : tile,
            [&]<int64_t TILE>(std::integral_constant<int64_t, TILE>) {
              // The gather kernels get a row of exactly one tile with N baked in, as TileGym compiles it
              // (the gather's column mask folds away).
              auto with_cols = [&](auto body) {
                if (columns == TILE) return body(std::integral_constant<int64_t, TILE>{});
                body(std::integral_constant<int64_t, dyn>{});
              };
              switch (kernel) {
                case CUTILE_CPP_SOFTMAX_GATHER:
                  with_cols([&]<int64_t COLS>(std::integral_constant<int64_t, COLS>) {
                    launch(persistent(options, placement.device, 4, rows), kernels::softmax_gather<E, TILE, COLS>,
                           y.partition({1, TILE}), x);
                  });
                  return;
                case CUTILE_CPP_SOFTMAX_MULTI_WAVE:
                  with_cols([&]<int64_t COLS>(std::integral_constant<int64_t, COLS>) {
                    launch(options, kernels::softmax_row<E, TILE, COLS>, y.partition({1, TILE}), x);
                  });
                  return;
                case CUTILE_CPP_SOFTMAX_TMA:
                  // TileGym's default occupancy is 2; its autotuning picks 6 for 1024-column rows on the
                  // H200 (1.5× faster there) and keeps 2 at 16384 (bench/results/
                  // 2026-11-30_h200_ops_quick_autotune.json).
                  launch(persistent(options, placement.device, TILE <= 1024 ? 6 : 2, rows),
                         kernels::softmax_tma<E, TILE>, y.partition({1, TILE}), x);
                  return;
                case CUTILE_CPP_SOFTMAX_CHUNKED:
                  if constexpr (TILE <= kMaxChunk) {
                    // One chunk when the row fits (TILE < kMaxChunk always does): a constant trip count.
                    if (columns <= TILE)
                      launch(persistent(options, placement.device, 4, rows),
                             kernels::softmax_chunked<E, TILE, 1>, y.partition({1, TILE}), x);
                    else if constexpr (TILE == kMaxChunk)
                      launch(persistent(options, placement.device, 4, rows),
                             kernels::softmax_chunked<E, TILE, dyn>, y.partition({1, TILE}), x);
                    return;
                  }
              }
              throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "softmax: no instance for kernel " +
                                                            std::to_string(kernel) + " and tile " +
                                                            std::to_string(TILE));
            });
}

int32_t softmax(const char* op, const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t kernel,
                int32_t device_id, void* stream) {
  return guarded(op, [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 2);
    check_rank(in, 2);
    check_same_shape(out, in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (kernel < CUTILE_CPP_SOFTMAX_GATHER || kernel > CUTILE_CPP_SOFTMAX_CHUNKED)
      throw AbiError(
          CUTILE_CPP_ERROR_INVALID_ARGUMENT,
          "kernel is " + std::to_string(kernel) + "; expected a cutile_cpp_softmax_kernel (0 to 3)");
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      launch_softmax<E>(Tensor<E>(lend(out, placement)), Tensor<E>(lend(in, placement)), in.shape[0],
                        in.shape[1], static_cast<cutile_cpp_softmax_kernel>(kernel), placement);
    });
  });
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_softmax(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                      int32_t device_id, void* stream) {
  return cutile::capi::softmax("cutile_cpp_softmax", y, x, CUTILE_CPP_SOFTMAX_GATHER, device_id, stream);
}

extern "C" int32_t cutile_cpp_softmax_variant(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x,
                                              int32_t kernel, int32_t device_id, void* stream) {
  return cutile::capi::softmax("cutile_cpp_softmax_variant", y, x, kernel, device_id, stream);
}
