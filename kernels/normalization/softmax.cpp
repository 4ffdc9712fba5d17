// softmax: the description and launcher of the kernels in softmax.hpp. One instance per dtype, kernel and
// power-of-two row tile (and for the gather kernels, rows of exactly one tile with N baked in), picked at
// run time, with TileGym's launch choices.
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "normalization/softmax.hpp"

namespace cutile::kernels {
namespace {

constexpr int64_t kMaxRowTile = 16384;  // the widest row one tile holds; longer rows go to the chunked kernel
constexpr int64_t kMaxChunk = 8192;     // TileGym's chunk cap (MAX_TILE_SIZE)

enum class Kernel { gather, multi_wave, tma, chunked };

// The TMA kernel's blocks per SM for a row tile of `row_bytes`.
constexpr int tma_occupancy(int64_t row_bytes) {
  return row_bytes <= 4096 ? 8 : row_bytes <= 8192 ? 6 : row_bytes <= 16384 ? 4 : 2;
}

// The persistent kernels' grid: `occupancy` blocks per SM (the tuned one where a record holds), at most one
// per row.
LaunchOptions persistent(const op::Target& target, int policy_occupancy, int64_t rows) {
  const int occupancy = static_cast<int>(target.tuned("occupancy", policy_occupancy));
  LaunchOptions options;
  options.grid = std::array<int64_t, 3>{std::min<int64_t>(int64_t{target.sm_count()} * occupancy, rows), 1, 1};
  options.hints.occupancy = occupancy;
  return options;
}

template <Element E, int64_t TILE>
void launch_kernel(op::Target& target, const Tensor<E>& y, const Tensor<E>& x, Kernel kernel) {
  const int64_t rows = x.shape()[0], columns = x.shape()[1];
  // The gather kernels get a row of exactly one tile with N baked in, as TileGym compiles it (the gather's
  // column mask folds away).
  auto with_columns = [&](auto body) {
    if (columns == TILE) return body.template operator()<TILE>();
    body.template operator()<dyn>();
  };
  switch (kernel) {
    case Kernel::gather:
      return with_columns([&]<int64_t COLS>() {
        target.launch(persistent(target, 4, rows), softmax_gather<E, TILE, COLS>, y.partition({1, TILE}), x);
      });
    case Kernel::multi_wave:
      return with_columns(
          [&]<int64_t COLS>() { target.launch({}, softmax_row<E, TILE, COLS>, y.partition({1, TILE}), x); });
    case Kernel::tma:
      // TileGym's default occupancy is 2 and its autotuning chooses from 2, 4, 6 and 8 per shape. On the H200
      // occupancy 2 ran rows of 4–8 KiB at 0.49–0.66× the autotuned kernel and 16 KiB at 0.73–0.95×
      // (bench/results/2026-12-03_h200_tilegym_bench_05b7c5c.json); the autotuner took 8 for 4 KiB rows and 6
      // for 8 KiB: more blocks per SM the shorter the row.
      return target.launch(persistent(target, tma_occupancy(TILE * int64_t{sizeof(E)}), rows),
                           softmax_tma<E, TILE>, y.partition({1, TILE}), x);
    case Kernel::chunked:
      if constexpr (TILE <= kMaxChunk) {
        // One chunk when the row fits: a constant trip count. Chunks of 8192 otherwise.
        if (columns <= TILE)
          return target.launch(persistent(target, 4, rows), softmax_chunked<E, TILE, 1>, y.partition({1, TILE}), x);
        if constexpr (TILE == kMaxChunk)
          return target.launch(persistent(target, 4, rows), softmax_chunked<E, TILE, dyn>, y.partition({1, TILE}),
                               x);
      }
  }
  throw InternalError("softmax: no instance for tile " + std::to_string(TILE));
}

}  // namespace

void launch_softmax(op::Target& target, const AnyTensor& y, const AnyTensor& x, bool use_tma, bool use_chunked,
                    bool use_multi_wave) {
  const int64_t columns = x.shape()[1];
  Kernel kernel = use_multi_wave ? Kernel::multi_wave : use_chunked ? Kernel::chunked : use_tma ? Kernel::tma : Kernel::gather;
  if (columns > kMaxRowTile) kernel = Kernel::chunked;
  const int64_t tile = kernel == Kernel::chunked ? std::min(columns, kMaxChunk) : columns;
  op::with_float_element(x.element_type(), [&]<class E>() {
    op::with_pow2<16, kMaxRowTile>(tile, [&]<int64_t TILE>() { launch_kernel<E, TILE>(target, Tensor<E>(y), Tensor<E>(x), kernel); });
  });
}

const op::OpSpec softmax_op{
    .name = "softmax",
    .family = "normalization",
    .doc = "y[r, :] = softmax(x[r, :]) over the last axis, computed in f32 with the approximate exp and division. "
           "The flags pick TileGym's kernel: multi-wave (one row per block), else chunked (rows in chunks of at "
           "most 8192 columns, three passes), else TMA (persistent tile loads and stores), else the persistent "
           "gather kernel. Rows of more than 16384 columns take the chunked kernel whatever the flags say.",
    .provenance = "TileGym src/tilegym/ops/cutile/softmax.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("y", "E[M, N]").like_input("x"), op::in("x", "E[M, N]")},
    .scalars = {op::flag("use_tma").described("persistent tile (TMA) loads and stores"),
                op::flag("use_chunked")
                    .described("rows in chunks of at most 8192 columns")
                    .valid_when("!(use_tma && use_chunked)"),
                op::flag("use_multi_wave").described("one row per tile block")},
    .launch = op::bind<launch_softmax>(),
    .parity = {{"softmax.gather", "softmax_gather", "M=4096 N=4096 E=bf16"},
               {"softmax.multi_wave", "softmax_row", "M=4096 N=4096 E=bf16 use_multi_wave=1"},
               {"softmax.tma", "softmax_tma", "M=4096 N=4096 E=bf16 use_tma=1"},
               {"softmax.chunked", "softmax_chunked", "M=4096 N=4096 E=bf16 use_chunked=1"}},
    .configurations = {"M=3 N={15,16,31,32,63,64,127,128,255,256,511,512,1023,1024,2047,2048,4095,4096,8191,8192,"
                       "16383,16384} E={f32,f16,bf16} use_tma={0,1} use_chunked=0 use_multi_wave={0,1}",
                       "M=3 N={15,16,1024,8191,8192,16384,20000} E={f32,f16,bf16} use_chunked=1"},
    .tilegym = {.name = "softmax", .signature = "x, use_tma=False, **kwargs"},
    // TileGym autotunes the TMA kernel's occupancy over these; the persistent kernels all take it.
    .tuning = {op::tunable("occupancy", {2, 4, 6, 8}, "tile blocks per SM of the persistent kernels")},
};

const op::Registration registration{softmax_op};

}  // namespace cutile::kernels
