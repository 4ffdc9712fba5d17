// persistent_layer_norm, persistent_layer_norm_given_stats: the descriptions and launchers of
// persistent_layer_norm.hpp. One instance per dtype and power-of-two column tile BD. Rows per tile and worker
// warps are those TileGym's autotuning picks on the H200 (bench/results/2026-11-30_h200_ops_quick_autotune.json):
// 8 rows and 4 warps at BD 1024, 2 rows and 8 warps at BD 16384; in general at most 32768 elements per tile, 4
// warps up to BD 1024. Short rows (BD <= 256) take 32 rows and 8 warps, the largest of TileGym's candidates: 8
// rows of 256 left the H200 at 0.61x cuTile Python. (TileGym's untuned default, 8 rows and 8 warps, spills at
// BD 16384: 3.6x slower.) Rows of at most 16384 elements (TileGym tests D <= 10000).
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "normalization/persistent_layer_norm.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kShortRow = 256;
constexpr int64_t kMinTile = 16;
// An 8 x 32768 tile takes tileiras past two minutes to compile; 8 x 16384 is the largest shipped.
constexpr int64_t kMaxColumns = 16384;

// Rows per tile of a BD-column tile: 32 for short rows, else 8, fewer where the (rows, BD) tile would pass
// 32768 elements.
constexpr int64_t rows_for(int64_t bd) { return bd <= kShortRow ? 32 : std::clamp<int64_t>(32768 / bd, 1, 8); }

// The grid is the default of an OutTiles output: min(SMs, row tiles) blocks, TileGym's.
LaunchOptions persistent_options(int64_t bd) {
  LaunchOptions options;
  options.hints.num_ctas = 1;
  options.hints.num_worker_warps = bd <= kShortRow || bd > 1024 ? 8 : 4;
  return options;
}

constexpr op::Requirement kRowLimit = op::unsupported_unless(
    "N <= 16384", "a row is one column tile of at most 16384 (wider ones take tileiras minutes)");

}  // namespace

void launch_persistent_layer_norm(op::Target& target, const AnyTensor& y, const AnyTensor& mean, const AnyTensor& rstd,
                                  const AnyTensor& x, const AnyTensor& weight, const AnyTensor& bias, double eps) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    op::with_pow2<kMinTile, kMaxColumns>(x.shape()[1], [&]<int64_t BD>() {
      constexpr int64_t ROWS = rows_for(BD);
      target.launch(persistent_options(BD), persistent_layer_norm<E, ROWS, BD>,
                    Tensor<E>(y).partition({ROWS, BD}), Tensor<float>(mean).partition({ROWS}),
                    Tensor<float>(rstd).partition({ROWS}), Tensor<E>(x), Tensor<E>(weight), Tensor<E>(bias),
                    static_cast<float>(eps));
    });
  });
}

void launch_persistent_layer_norm_given_stats(op::Target& target, const AnyTensor& y, const AnyTensor& x,
                                              const AnyTensor& weight, const AnyTensor& bias, const AnyTensor& mean,
                                              const AnyTensor& rstd) {
  op::with_float_element(x.element_type(), [&]<class E>() {
    op::with_pow2<kMinTile, kMaxColumns>(x.shape()[1], [&]<int64_t BD>() {
      constexpr int64_t ROWS = rows_for(BD);
      target.launch(persistent_options(BD), persistent_layer_norm_given_stats<E, ROWS, BD>,
                    Tensor<E>(y).partition({ROWS, BD}), Tensor<E>(x), Tensor<E>(weight), Tensor<E>(bias),
                    Tensor<float>(mean), Tensor<float>(rstd));
    });
  });
}

const op::OpSpec persistent_layer_norm_op{
    .name = "persistent_layer_norm",
    .family = "normalization",
    .doc = "Layer normalisation over the last axis, persistent (row tiles, one block per SM), in f32: mean[r] = "
           "mean_c x[r, c] and rstd[r] = 1 / sqrt(mean_c x[r, c]^2 - mean[r]^2 + eps), stored; y = (x - mean) * rstd "
           "* weight + bias rounded to bf16 (as TileGym's kernel stores it, whatever the dtype), stored in the dtype.",
    .provenance = "TileGym src/tilegym/ops/cutile/layer_norm_legacy.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").rows(), op::out("mean", "f32[M]", "one per row"),
                op::out("rstd", "f32[M]", "one per row"), op::in("x", "E[M, N]").rows(), op::in("weight", "E[N]"),
                op::in("bias", "E[N]")},
    .scalars = {op::real("eps").valid_when("finite(eps) && eps >= 0")},
    .rules = {kRowLimit},
    .launch = op::bind<launch_persistent_layer_norm>(),
    .parity = {{"persistent_layer_norm.persistent", "persistent_layer_norm", "M=30000 N=1024 E=bf16 eps=1e-6"}},
    // With the parity case's bf16 at 1024 columns: every dtype, and the shortest and widest row tiles.
    .configurations = {"M=300 N=1000 E={f32,f16} eps=1e-6", "M=300 N={16,16384} E=bf16 eps=1e-6"},
};

const op::OpSpec persistent_layer_norm_given_stats_op{
    .name = "persistent_layer_norm_given_stats",
    .family = "normalization",
    .doc = "persistent_layer_norm with mean and rstd given (read, not computed).",
    .provenance = "TileGym src/tilegym/ops/cutile/layer_norm_legacy.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").rows(), op::in("x", "E[M, N]").rows(), op::in("weight", "E[N]"),
                op::in("bias", "E[N]"), op::in("mean", "f32[M]", "one per row"),
                op::in("rstd", "f32[M]", "one per row")},
    .rules = {kRowLimit},
    .launch = op::bind<launch_persistent_layer_norm_given_stats>(),
    .configurations = {"M=300 N=1000 E={f32,f16,bf16}", "M=300 N={16,16384} E=bf16"},
};

const op::Registration registrations[] = {op::Registration{persistent_layer_norm_op},
                                          op::Registration{persistent_layer_norm_given_stats_op}};

}  // namespace cutile::kernels
