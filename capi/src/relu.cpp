// cutile_cpp_relu: kernels/activation/relu.hpp, one instance per dtype.
#include "activation/relu.hpp"
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "placement.hpp"

namespace {
constexpr int64_t kTile = 1024;  // TileGym's BLOCK_SIZE
}  // namespace

extern "C" int32_t cutile_cpp_relu(const cutile_cpp_tensor* y, const cutile_cpp_tensor* x, int32_t device_id,
                                   void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_relu", [&] {
    const auto tensors = check_descriptors({{"y", y, true}, {"x", x, false}}, device_id);
    const CheckedTensor &out = tensors[0], &in = tensors[1];
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    check_rank(out, 1);
    check_rank(in, 1);
    check_same_shape(out, in);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (in.numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(in.dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> yt(lend(out, placement));
      cutile::launch(options, cutile::kernels::relu<E, kTile>, yt.partition({kTile}),
                     cutile::Tensor<E>(lend(in, placement)));
    });
  });
}
