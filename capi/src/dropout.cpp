// cutile_cpp_dropout, cutile_cpp_dropout_inplace: kernels/elementwise/dropout.hpp, one instance per dtype
// (and per in-place-ness).
#include <cmath>
#include <cstring>
#include <string>

#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "elementwise/dropout.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kTile = 1024;  // TileGym's TILE_SIZE

// TileGym's `_mix_seed`: the seed times 0x9E3779B1, modulo 2^32, as a signed int32.
int32_t mix_seed(int64_t seed) {
  const uint32_t mixed = static_cast<uint32_t>(static_cast<uint64_t>(seed)) * 2654435761u;
  int32_t out;
  std::memcpy(&out, &mixed, sizeof out);
  return out;
}

void check_probability(double p) {
  if (std::isnan(p)) throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT, "p is nan; expected a probability");
}

// 1 / (1 - p), or 0 when p ≥ 1 (every element dropped); the launch rounds it to E.
double keep_scale(double p) {
  return p >= 1.0 ? 0.0 : 1.0 / (1.0 - p);
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_dropout(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, double p,
                                      int64_t seed, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_dropout", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 1);
    check_same_shape(tensors[0], tensors[1]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    check_probability(p);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> out(lend(tensors[0], placement));
      cutile::launch(options, cutile::kernels::dropout<E, kTile>, out.partition({kTile}),
                     cutile::Tensor<E>(lend(tensors[1], placement)), mix_seed(seed), p, keep_scale(p));
    });
  });
}

extern "C" int32_t cutile_cpp_dropout_inplace(const cutile_cpp_tensor* x, double p, int64_t seed,
                                              int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_dropout_inplace", [&] {
    const auto tensors = check_descriptors({{"x", x, true}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(tensors[0], 1);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    check_probability(p);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> inout(lend(tensors[0], placement));
      cutile::launch(options, cutile::kernels::dropout_inplace<E, kTile>, inout.partition({kTile}),
                     mix_seed(seed), p, keep_scale(p));
    });
  });
}
