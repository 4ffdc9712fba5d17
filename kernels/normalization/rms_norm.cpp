// rms_norm, rms_norm_backward: the descriptions and launchers of rms_norm.hpp. One instance per dtype and
// power-of-two row tile, with TileGym's tile-size heuristics.
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "normalization/rms_norm.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMinTile = 16;
constexpr int64_t kMaxColumns = 32768;  // a row is at most one (reloaded) row tile

// TileGym's static persistent rows per tile: more rows for short rows, fewer for long ones.
template <int64_t TN>
constexpr int64_t persistent_rows = TN <= 1024 ? 16 : TN >= 16384 ? 2 : 4;

// The static persistent kernel runs 8 worker warps, as tileiras compiles cuTile Python's (384 threads,
// 168 registers, the x tile's TMA loads multi-buffered). Left to itself, tileiras gives ours, whose loop
// carries the y and rstd token chains, 4 (256 threads, 255 registers; at 16384 columns spills and one x
// buffer). docs/porting-log.md, normalization.
LaunchOptions persistent_options() {
  LaunchOptions options;
  options.hints.num_worker_warps = 8;
  return options;
}

// TileGym's backward rows per tile: 4 up to 2048 columns (4096 with at least 8192 rows), else 1.
constexpr int64_t backward_rows(int64_t tn, int64_t rows) { return tn <= 2048 || (tn <= 4096 && rows >= 8192) ? 4 : 1; }

const op::Requirement one_row_tile = op::unsupported_unless("N <= 32768", "a row is at most one 32768-column tile");

const op::ChoiceSet rms_norm_modes{
    .name = "rms_norm_mode",
    .values = {"auto", "static_persistent", "multi_wave_reload", "multi_wave_cached"},
    .doc = "The kernel schedule of cutile_cpp_rms_norm (TileGym's `mode`): auto is static persistent when M > 2 * "
           "SMs, else multi-wave reload; static persistent walks (TM, next_pow2(N)) row tiles with one block per SM; "
           "multi-wave reload gathers each row in tiles twice, one row per block; multi-wave cached gathers it "
           "whole once.",
};

}  // namespace

void launch_rms_norm(op::Target& target, const AnyTensor& y, const AnyTensor& rstd, const AnyTensor& x,
                     const AnyTensor& weight, double eps, double offset, RmsNormMode mode) {
  const int64_t rows = x.shape()[0];
  if (mode == RmsNormMode::auto_)  // TileGym: persistent once the rows take more than two waves
    mode = rows > 2 * int64_t{target.sm_count()} ? RmsNormMode::static_persistent : RmsNormMode::multi_wave_reload;
  const auto e = static_cast<float>(eps), o = static_cast<float>(offset);
  op::with_float_element(x.element_type(), [&]<class E>() {
    const Tensor<E> yt(y), xt(x), wt(weight);
    const Tensor<float> rt(rstd);
    op::with_pow2<kMinTile, kMaxColumns>(x.shape()[1], [&]<int64_t TN>() {
      switch (mode) {
        case RmsNormMode::static_persistent: {
          constexpr int64_t TM = persistent_rows<TN>;
          return target.launch(persistent_options(), rms_norm_static_persistent<E, TM, TN>, yt.partition({TM, TN}),
                               rt.partition({TM}), xt, wt, e, o);
        }
        case RmsNormMode::multi_wave_reload: {
          constexpr int64_t TILE = std::min<int64_t>(4096 / sizeof(E), TN);  // TileGym's MAX_FUSED_SIZE
          return target.launch({}, rms_norm_row_reload<E, TN, TILE>, yt.partition({1, TN}), rt.partition({1}), xt, wt,
                               e, o);
        }
        default:
          return target.launch({}, rms_norm_row_cached<E, TN>, yt.partition({1, TN}), rt.partition({1}), xt, wt, e, o);
      }
    });
  });
}

void launch_rms_norm_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dweight,
                              const AnyTensor& dy, const AnyTensor& x, const AnyTensor& weight,
                              const AnyTensor& rstd, double offset) {
  const int64_t rows = x.shape()[0], columns = x.shape()[1];
  LaunchOptions options;
  options.hints.occupancy = 1;  // TileGym's `occupancy=1`: one large persistent block per SM
  op::with_float_element(x.element_type(), [&]<class E>() {
    op::with_pow2<kMinTile, kMaxColumns>(columns, [&]<int64_t TN>() {
      const int64_t tm = backward_rows(TN, rows);
      const int64_t tiles = (rows + tm - 1) / tm;
      const int64_t blocks = std::min<int64_t>({target.sm_count(), tiles, tiles <= 64 ? 32 : tiles});
      const Tensor<float> partial(target.scratch(op::Dtype::f32, {blocks, TN}));
      auto backward = [&]<int64_t TM, bool SHIFTED>() {
        target.launch(options, rms_norm_backward<E, TM, TN, SHIFTED>, Tensor<E>(dx).partition({TM, TN}),
                      partial.partition({1, TN}), Tensor<E>(dy), Tensor<E>(x), Tensor<E>(weight), Tensor<float>(rstd),
                      static_cast<float>(offset));
      };
      if (blocks > 0) {
        if (tm == 4)
          offset != 0 ? backward.template operator()<4, true>() : backward.template operator()<4, false>();
        else
          offset != 0 ? backward.template operator()<1, true>() : backward.template operator()<1, false>();
      }
      constexpr int64_t COLUMNS = std::min<int64_t>(TN, 1024);
      target.launch({}, rms_norm_backward_dweight<E, 32, COLUMNS>, Tensor<E>(dweight).partition({COLUMNS}), partial);
    });
  });
}

const op::OpSpec rms_norm_op{
    .name = "rms_norm",
    .family = "normalization",
    .doc = "RMS normalisation over the last axis, computed in f32: rstd[r] = 1 / sqrt(mean_c x[r, c]^2 + eps), "
           "y[r, :] = x[r, :] * rstd[r] * (offset + weight), stored in the dtype; rstd is stored too.",
    .provenance = "TileGym src/tilegym/ops/cutile/rms_norm.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").rows(), op::out("rstd", "f32[M]", "one per row"),
                op::in("x", "E[M, N]").rows(), op::in("weight", "E[N]")},
    .scalars = {op::real("eps", 1e-6).valid_when("finite(eps) && eps >= 0"),
                op::real("offset", 0.0).valid_when("finite(offset)").described("0 for Llama, 1 for Gemma3"),
                op::choice("mode", rms_norm_modes, "auto")},
    .rules = {one_row_tile},
    .launch = op::bind<launch_rms_norm>(),
    .backward = "rms_norm_backward",
    .parity = {{"rms_norm.static_persistent", "rms_norm_static_persistent", "M=4096 N=4096 E=bf16 eps=1e-5 mode=static_persistent"},
               {"rms_norm.multi_wave_reload", "rms_norm_row_reload", "M=4096 N=4096 E=bf16 eps=1e-5 mode=multi_wave_reload"},
               {"rms_norm.multi_wave_cached", "rms_norm_row_cached", "M=4096 N=4096 E=bf16 eps=1e-5 mode=multi_wave_cached"}},
    .configurations = {"M=300 N={16,1000,4096} E={f32,f16,bf16} mode={static_persistent,multi_wave_reload,"
                       "multi_wave_cached}",
                       "M=300 N=32768 E=bf16 mode={static_persistent,multi_wave_reload,multi_wave_cached}"},
    .tilegym = {.name = "rms_norm",
                .signature = "input, normalized_shape, weight, eps, bias=None, mode=None, offset=0.0, **kwargs",
                .renames = "x=input",
                .ignored = "normalized_shape",
                .unsupported = "bias",
                .returns = "y"},
};

const op::OpSpec rms_norm_backward_op{
    .name = "rms_norm_backward",
    .family = "normalization",
    .doc = "The backward of rms_norm given its rstd: x_hat = x * rstd, g = dy * (offset + weight), dx = (g - x_hat * "
           "mean_c(x_hat * g)) * rstd, dweight = sum_r dy * x_hat (in f32, stored in the dtype).",
    .provenance = "TileGym src/tilegym/ops/cutile/rms_norm.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("dx", "E[M, N]").rows(), op::out("dweight", "E[N]"), op::in("dy", "E[M, N]").rows(),
                op::in("x", "E[M, N]").rows(), op::in("weight", "E[N]"), op::in("rstd", "f32[M]")},
    .scalars = {op::real("offset", 0.0).valid_when("finite(offset)")},
    .rules = {one_row_tile},
    .launch = op::bind<launch_rms_norm_backward>(),
    .parity = {{"rms_norm.backward", "rms_norm_backward", "M=4096 N=4096 E=bf16"}},
    .configurations = {"M={300,9000} N={16,4096} E={f32,f16,bf16} offset={0,1}", "M=300 N=32768 E=bf16"},
};

const op::Registration registrations[] = {op::Registration{rms_norm_op}, op::Registration{rms_norm_backward_op}};

}  // namespace cutile::kernels
