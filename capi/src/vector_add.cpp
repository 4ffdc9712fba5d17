// cutile_cpp_vector_add: kernels/elementwise/vector_add.hpp, one instance per dtype.
#include "cutile/host/launch.hpp"
#include "dispatch.hpp"
#include "elementwise/vector_add.hpp"
#include "placement.hpp"

namespace {
constexpr int64_t kTile = 1024;
}  // namespace

extern "C" int32_t cutile_cpp_vector_add(const cutile_cpp_tensor* c, const cutile_cpp_tensor* a,
                                         const cutile_cpp_tensor* b, int32_t device_id, void* stream) {
  using namespace cutile::capi;
  return guarded("cutile_cpp_vector_add", [&] {
    const auto tensors = check_descriptors({{"c", c, true}, {"a", a, false}, {"b", b, false}}, device_id);
    check_dtypes(tensors, {CUTILE_CPP_F32, CUTILE_CPP_F16, CUTILE_CPP_BF16});
    for (const CheckedTensor& t : tensors) check_rank(t, 1);
    check_same_shape(tensors[0], tensors[1]);
    check_same_shape(tensors[0], tensors[2]);
    check_index_range(tensors);
    check_no_aliasing(tensors);
    if (tensors[0].numel() == 0) return;
    const Placement placement = place(tensors, device_id, stream);
    cutile::LaunchOptions options = placement.launch_options();
    dispatch_float(tensors[0].dtype, [&]<class E>(std::type_identity<E>) {
      const cutile::Tensor<E> out(lend(tensors[0], placement));
      cutile::launch(options, cutile::kernels::vector_add<E, kTile>, out.partition({kTile}),
                     cutile::Tensor<E>(lend(tensors[1], placement)),
                     cutile::Tensor<E>(lend(tensors[2], placement)));
    });
  });
}
