// fmha: the description and launcher of fmha.hpp (TileGym's tilegym/ops/cutile/attention.py, the prefill
// forward). The policy is TileGym's first autotuning candidate for sm_90 and later (256-row query tiles);
// its other candidates are the tuning space. TileGym's backward, variants, varlen and decode kernels are
// not here yet.
#include <cmath>

#include "attention/fmha.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::kernels {
namespace {

// (B, H, S, D) as (B·H, S, D): B and H must fold into one axis.
AnyTensor heads_folded(const AnyTensor& t, const char* name) {
  const auto& shape = t.shape();
  const auto& strides = t.strides();
  if (shape[0] > 1 && strides[0] != shape[1] * strides[1])
    throw op::OpError(op::Problem::unsupported_shape,
                      std::string(name) + " " + t.describe() + ": its batch stride must be H times its head stride, so "
                      "that (B, H) fold into one axis (a contiguous tensor, or a transpose of (B, S, H, D))");
  return t.as_strided({shape[0] * shape[1], shape[2], shape[3]}, {strides[1], strides[2], strides[3]});
}

}  // namespace

void launch_fmha(op::Target& target, const AnyTensor& o, const AnyTensor& q, const AnyTensor& k, const AnyTensor& v,
                 double scaling, bool is_causal) {
  constexpr int64_t TN = 128;
  const int64_t heads = q.shape()[1], head_dim = q.shape()[3];
  const double scale = std::isnan(scaling) ? 1.0 / std::sqrt(static_cast<double>(head_dim)) : scaling;
  const int64_t input_pos = k.shape()[2] - q.shape()[2];  // chunked prefill: the keys before the queries
  LaunchOptions options;
  options.hints.occupancy = static_cast<int>(target.tuned("occupancy", 2));
  if (const int64_t ctas = target.tuned("num_ctas", 0)) options.hints.num_ctas = static_cast<int>(ctas);  // 0: no hint
  op::with_element<f16, bf16>(q.element_type(), [&]<class E>() {
    const Tensor<E> of(heads_folded(o, "o")), qf(heads_folded(q, "q")), kf(heads_folded(k, "k")), vf(heads_folded(v, "v"));
    auto run = [&]<int64_t D, int64_t TM, bool CAUSAL>() {
      target.launch(options, fmha<E, D, TM, TN, CAUSAL>, of.partition({TM, 1, D}, {1, 0, 2}), qf, kf, vf, scale,
                    input_pos, heads, heads / k.shape()[1]);
    };
    op::with_pow2<128, 256>(target.tuned("TILE_M", 256), [&]<int64_t TM>() {
      op::with_flag(is_causal, [&]<bool CAUSAL>() {
        head_dim == 64 ? run.template operator()<64, TM, CAUSAL>() : run.template operator()<128, TM, CAUSAL>();
      });
    });
  });
}

const op::OpSpec fmha_op{
    .name = "fmha",
    .family = "attention",
    .doc = "Attention forward (flash attention, online softmax in f32): o = softmax(scaling * q @ k^T) @ v per head, "
           "query head h attending with key/value head h / (H / G) (grouped-query attention); causal: query row i "
           "sees keys j <= i + L - S (the keys before the queries are a prefix).",
    .provenance = "TileGym src/tilegym/ops/cutile/attention.py",
    .dtypes = {{"E", {op::Dtype::f16, op::Dtype::bf16}}},
    .tensors = {op::out("o", "E[B, H, S, D]").like_input("q"), op::in("q", "E[B, H, S, D]"),
                op::in("k", "E[B, G, L, D]"), op::in("v", "E[B, G, L, D]")},
    .scalars = {op::real("scaling", NAN).described("the score scale; NaN (Python: None) is 1/sqrt(D)"),
                op::flag("is_causal", true)},
    .rules = {op::requires_that("H % G == 0", "query heads come in groups of equal size per key/value head"),
              op::requires_that("is_causal == 0 || L >= S", "causal queries are the last S of the L positions"),
              op::unsupported_unless("D == 64 || D == 128", "the kernels are instantiated for head dims 64 and 128")},
    .launch = op::bind<launch_fmha>(),
    .parity = {{"attention.fmha", "fmha", "B=4 H=32 S=4096 G=32 L=4096 D=128 E=f16 is_causal=1"}},
    .configurations = {"B=1 H=4 S=300 G={4,1} L=300 D={64,128} E={f16,bf16} is_causal={0,1}"},
    // TileGym's candidates for sm_90 and later: 256×128 tiles at occupancy 1 and 2, on clusters of 1 and 2,
    // and 128×128 at occupancy 2; smaller query tiles spill less (256 rows hold about 5.6 KB per thread).
    .tuning = {op::tunable("TILE_M", {128, 256}, "query rows per block"),
               op::tunable("occupancy", {1, 2}, "blocks per SM"), op::tunable("num_ctas", {1, 2}, "CTAs per cluster")},
};

const op::Registration registration{fmha_op};

}  // namespace cutile::kernels
