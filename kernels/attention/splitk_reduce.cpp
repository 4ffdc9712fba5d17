// splitk_reduce: the description and launcher of splitk_reduce.hpp. One instance per dtype, splits tile P,
// head-dim tile TILE_D and body (sum or dot), picked at run time with TileGym's launch choices.
#include <string>

#include "attention/splitk_reduce.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMaxSplits = 256;  // the largest splits tile instantiated (TileGym's decode callers split
                                     // into at most the SM count, 132 on the H200, by default)
constexpr int64_t kMaxTileD = 128;   // TileGym's TILE_D = min(128, next_pow2(D))

// TileGym's USE_DOT threshold on P: 4 below compute capability 9, else 16. The interpreter ("interpret")
// takes the H200's.
int64_t dot_threshold(const std::string& gpu) {
  if (gpu.rfind("sm_", 0) == 0) {
    const int arch = std::stoi(gpu.substr(3));
    if (arch < 90) return 4;
  }
  return 16;
}

}  // namespace

void launch_splitk_reduce(op::Target& target, const AnyTensor& attn_out, const AnyTensor& attn_splitk_out,
                          const AnyTensor& lse_splitk_out) {
  const int64_t splits = attn_splitk_out.shape()[2], head_dim = attn_splitk_out.shape()[3];
  const int64_t threshold = dot_threshold(target.gpu());
  LaunchOptions options;  // TileGym's decorator: occupancy ByTarget(sm_80=2, default=4)
  options.hints.occupancy = 4;
  options.hints.for_target("sm_80", {.occupancy = 2});
  op::with_float_element(attn_splitk_out.element_type(), [&]<class E>() {
    const Tensor<E> out(attn_out), partials(attn_splitk_out);
    const Tensor<float> lse(lse_splitk_out);
    op::with_pow2<1, kMaxSplits>(splits, [&]<int64_t P>() {
      op::with_pow2<1, kMaxTileD>(head_dim, [&]<int64_t TILE_D>() {
        // USE_DOT = P >= threshold (4 or 16): only P >= 4 has a dot instance, only P < 16 a sum one.
        if (P >= threshold) {
          if constexpr (P >= 4)
            return target.launch(options, splitk_reduce<E, P, TILE_D, true>, out.partition({1, 1, TILE_D}),
                                 partials, lse);
        } else {
          if constexpr (P < 16)
            return target.launch(options, splitk_reduce<E, P, TILE_D, false>, out.partition({1, 1, TILE_D}),
                                 partials, lse);
        }
        throw InternalError("splitk_reduce: no instance for P " + std::to_string(P) + " with the dot threshold " +
                            std::to_string(threshold));
      });
    });
  });
}

const op::OpSpec splitk_reduce_op{
    .name = "splitk_reduce",
    .family = "attention",
    .doc = "The merge of split-KV attention decode partials: attn_out[b, h, :] = sum_i w_i * attn_splitk_out[b, h, i, :] "
           "/ sum_i w_i with w_i = 2^(lse_splitk_out[b, h, i] - max_i lse_splitk_out[b, h, i]) (log-sum-exps in log2 "
           "units), computed in f32.",
    .provenance = "TileGym src/tilegym/ops/cutile/splitk_reduce.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("attn_out", "E[B, H, D]"), op::in("attn_splitk_out", "E[B, H, K, D]"),
                op::in("lse_splitk_out", "f32[B, H, K]")},
    .rules = {op::requires_that("K >= 1", "the merge needs at least one split"),
              op::unsupported_unless("K <= 256", "the splits tile is at most 256 (next_pow2(K))")},
    .launch = op::bind<launch_splitk_reduce>(),
    .parity = {{"splitk_reduce.sum", "splitk_reduce", "B=1 H=32 K=8 D=512 E=f16"},
               {"splitk_reduce.dot", "splitk_reduce", "B=1 H=32 K=16 D=512 E=f16"}},
    .configurations = {"B=2 H=3 K={1,3,8,16,256} D={5,128,300} E={f32,f16,bf16}"},
    // TileGym's entry fills the attn_out it is given and returns it; S_kv is a ct.Constant its kernel never
    // reads.
    .tilegym = {.name = "splitk_reduce",
                .signature = "attn_splitk_out, lse_splitk_out, attn_out, S_kv, **kwargs",
                .ignored = "S_kv",
                .returns = "attn_out"},
};

const op::Registration registration{splitk_reduce_op};

}  // namespace cutile::kernels
