// cutile_cpp_swiglu, cutile_cpp_swiglu_backward: kernels/activation/swiglu.hpp, one instance per dtype and
// power-of-two row tile.
#include "activation/swiglu.hpp"
#include "activation.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace cutile::capi {
namespace {

constexpr int64_t kMinTile = 64, kMaxTile = 16384;

int64_t cdiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace
}  // namespace cutile::capi

extern "C" int32_t cutile_cpp_swiglu(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                     const cutile_cpp_tensor* b, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_swiglu", [&] {
    const auto tensors = check_descriptors({{"c", c, true}, {"a", a, false}, {"b", b, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 2);
    check_same_shape(tensors[0], tensors[1]);
    check_same_shape(tensors[0], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    options.hints.occupancy = 1;  // TileGym's kernel hints
    options.hints.num_worker_warps = 8;
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> c_out(lend(tensors[0], placement)), at(lend(tensors[1], placement)),
          bt(lend(tensors[2], placement));
      activation::with_pow2_tile<kMinTile, kMaxTile>(
          tensors[0].shape[1], [&]<int64_t T>(std::integral_constant<int64_t, T>) {
            cutile::launch(options, cutile::kernels::swiglu<E, T>, c_out.partition({1, T}), at, bt);
          });
    });
  });
}

extern "C" int32_t cutile_cpp_swiglu_backward(const cutile_cpp_tensor* da, const cutile_cpp_tensor* db,
                                              const cutile_cpp_tensor* dc, const cutile_cpp_tensor* a,
                                              const cutile_cpp_tensor* b, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_swiglu_backward", [&] {
    const auto tensors = check_descriptors(
        {{"da", da, true}, {"db", db, true}, {"dc", dc, false}, {"a", a, false}, {"b", b, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 2);
    for (size_t i = 1; i < tensors.size(); ++i) check_same_shape(tensors[0], tensors[i]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    // TileGym's width: split each row into ⌈SMs / rows⌉ pieces, so that few rows still fill the GPU.
    const int64_t rows = tensors[0].shape[0], columns = tensors[0].shape[1];
    const int64_t pieces = cdiv(placement.device.sm_count(), rows);
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> dat(lend(tensors[0], placement)), dbt(lend(tensors[1], placement)),
          dct(lend(tensors[2], placement)), at(lend(tensors[3], placement)),
          bt(lend(tensors[4], placement));
      activation::with_pow2_tile<kMinTile, kMaxTile>(
          columns / pieces, [&]<int64_t T>(std::integral_constant<int64_t, T>) {
            cutile::launch(options, cutile::kernels::swiglu_backward<E, T>, dat.partition({1, T}),
                           dbt.partition({1, T}), dct, at, bt);
          });
    });
  });
}
