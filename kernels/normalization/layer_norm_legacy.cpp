// layer_norm_legacy: the description and launcher of layer_norm_legacy.hpp. One instance per dtype, power-of-two
// column tile (TileGym's largest power of two <= N, capped at 64 KiB of the element) and number of column tiles.
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "normalization/layer_norm_legacy.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMinBlock = 16;  // shorter rows take one 16-column pass

}  // namespace

void launch_layer_norm_legacy(op::Target& target, const AnyTensor& y, const AnyTensor& mean, const AnyTensor& rstd,
                              const AnyTensor& x, const AnyTensor& weight, const AnyTensor& bias, double eps,
                              double weight_shift) {
  const int64_t n = x.shape()[1];
  const auto e = static_cast<float>(eps), shift = static_cast<float>(weight_shift);
  op::with_float_element(x.element_type(), [&]<class E>() {
    constexpr int64_t MAX_BLOCK = 65536 / sizeof(E);  // TileGym's MAX_FUSED_SIZE
    // The largest power of two <= N is the smallest one >= N/2 + 1.
    op::with_pow2<kMinBlock, MAX_BLOCK>(n / 2 + 1, [&]<int64_t BLOCK>() {
      auto launch = [&]<int64_t TILES, int64_t COLS>() {
        target.launch({}, layer_norm_legacy<E, BLOCK, TILES, COLS>, Tensor<E>(y).partition({1, TILES * BLOCK}),
                      Tensor<float>(mean).partition({1}), Tensor<float>(rstd).partition({1}), Tensor<E>(x),
                      Tensor<E>(weight), Tensor<E>(bias), e, shift);
      };
      if (n == BLOCK) return launch.template operator()<1, BLOCK>();  // N baked in, as TileGym compiles it
      if (n < BLOCK) return launch.template operator()<1, dyn>();      // rows shorter than kMinBlock
      if constexpr (BLOCK < MAX_BLOCK) launch.template operator()<2, dyn>();
    });
  });
}

const op::OpSpec layer_norm_legacy_op{
    .name = "layer_norm_legacy",
    .family = "normalization",
    .doc = "Layer normalisation over the last axis, one row per block in column tiles (TileGym's legacy kernel), in "
           "f32: mean[r] = mean_c x[r, c]; rstd[r] = 1 / sqrt(mean_c (x[r, c] - mean[r])^2 + eps); y[r, c] = (x[r, c] "
           "- mean[r]) * rstd[r] * (weight[c] + weight_shift) + bias[c], stored in the dtype; mean and rstd are "
           "stored too.",
    .provenance = "TileGym src/tilegym/ops/cutile/layer_norm_legacy.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").rows(), op::out("mean", "f32[M]", "one per row"),
                op::out("rstd", "f32[M]", "one per row"), op::in("x", "E[M, N]").rows(), op::in("weight", "E[N]"),
                op::in("bias", "E[N]")},
    .scalars = {op::real("eps").valid_when("finite(eps) && eps >= 0"),
                op::real("weight_shift", 0.0).valid_when("finite(weight_shift)").described("added to the weight")},
    .rules = {op::unsupported_unless("N * size(E) <= 65536", "a row of at most 64 KiB (TileGym's MAX_FUSED_SIZE)")},
    .launch = op::bind<launch_layer_norm_legacy>(),
    .parity = {{"layer_norm_legacy.legacy", "layer_norm_legacy", "M=4096 N=4096 E=f16 eps=1e-5"}},
    // Each variant in every dtype (one tile with N baked in, two tiles), the shortest rows (one tile of 16 with
    // N dynamic) and the widest tiles.
    .configurations = {"M=300 N={1024,1500} E={f32,f16,bf16} eps=1e-5", "M=300 N={9,16,31} E=bf16 eps=1e-5",
                       "M=300 N={20000,32768} E=bf16 eps=1e-5"},
    .tilegym = {.name = "layer_norm_legacy",
                .signature = "input, normalized_shape, weight, bias, eps, weight_shift=0.0, **kwargs",
                .renames = "x=input",
                .ignored = "normalized_shape",
                .returns = "y"},
};

const op::Registration registration{layer_norm_legacy_op};

}  // namespace cutile::kernels
