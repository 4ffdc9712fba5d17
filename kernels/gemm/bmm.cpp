// bmm: the description and launcher of bmm.hpp. One instance per dtype, transpose pair and tile
// candidate of TileGym's H200 autotuning (its tilegym/ops/cutile/bmm.py).
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "gemm/bmm.hpp"

namespace cutile::kernels {
namespace {

constexpr int kGroup = 8;    // TileGym's GROUP_SIZE_M
constexpr int kLatency = 3;  // TileGym's LATENCY: its sm_90 candidates carry none, so the launcher's default 3
static_assert(kPersistentBmmTiles.size() == 3, "config's valid range below");

// The tiles TileGym's autotuner settles on for this shape on the H200 (docs/porting-runs/bmm/analyze/gpu/
// autotune.json, TileGym's benchmark and test shapes, every transpose pair): 256×128 wherever its tiles
// fill the grid's clusters (SMs / 2; 1.35–1.55× faster than the runner-up from 2048 on), 128×128 on
// occupancy 2 where 256×128 leaves clusters idle but 128×128 does not, 128×64 on occupancy 1 below that.
size_t chosen_tiles(int64_t q, int64_t m, int64_t n, int64_t sm_count) {
  const int64_t clusters = sm_count / kPersistentBmmTiles[0].ctas;
  if (q * kPersistentBmmTiles[0].tiles(m, n) >= clusters) return 0;
  if (q * kPersistentBmmTiles[1].tiles(m, n) >= clusters) return 1;
  return 2;
}

}  // namespace

void launch_bmm(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b, bool transpose_a,
                bool transpose_b, bool static_persistent, int64_t config) {
  const int64_t q = c.shape()[0], m = c.shape()[1], n = c.shape()[2];
  op::with_float_element(a.element_type(), [&]<class E>() {
    const Tensor<E> ct(c), at(a), bt(b);
    op::with_flag(transpose_a, [&]<bool TA>() {
      op::with_flag(transpose_b, [&]<bool TB>() {
        if (!static_persistent) {
          // TileGym's grid (⌈M/TM⌉, ⌈N/TN⌉, Q) is the partition's: tile dims (M, N, Q), no hints.
          constexpr GemmTiles t = kBmmTiles;
          target.launch(LaunchOptions{}, bmm<E, E, t.bm, t.bn, t.bk, TA, TB>, ct.partition({t.bm, t.bn, 1}, {1, 2, 0}),
                        at, bt);
          return;
        }
        const size_t index =
            config >= 0 ? static_cast<size_t>(config) : chosen_tiles(q, m, n, target.sm_count());
        op::with_index<kPersistentBmmTiles.size()>(index, [&]<size_t I>() {
          constexpr GemmTiles t = kPersistentBmmTiles[I];
          LaunchOptions options = t.options();
          // TileGym: min(SMs / CTAs per cluster, tiles) blocks, times the occupancy
          const int64_t blocks = std::max<int64_t>(
              1, std::min<int64_t>(target.sm_count() / t.ctas, q * t.tiles(m, n)) * t.occupancy);
          options.grid = std::array<int64_t, 3>{blocks, 1, 1};
          target.launch(options, static_persistent_bmm<E, E, t.bm, t.bn, t.bk, kGroup, kLatency, TA, TB>,
                        ct.partition({1, t.bm, t.bn}), at, bt);
        });
      });
    });
  });
}

const op::OpSpec bmm_op{
    .name = "bmm",
    .family = "gemm",
    .doc =
        "c[q] = op(a[q]) @ op(b[q]) for every q of the batch with f32 accumulation, stored in the dtype (f16 "
        "and bf16 on the tensor cores; f32 operands in f32, not tf32, as TileGym's); op(x) is x, or its "
        "transpose when x is given transposed. static_persistent walks the output tiles with a persistent "
        "grid, batch after batch in TileGym's grouped order, in the tiles TileGym's autotuner picks on the "
        "H200 for the shape; else one block per 128x128 tile on a (M tiles, N tiles, Q) grid. Both kernels "
        "take transposed operands (TileGym's plain kernel refuses them); TileGym's kernel_configs (the plain "
        "kernel's tiles) is accepted and not taken.",
    .provenance = "TileGym src/tilegym/ops/cutile/bmm.py",
    .dtypes = {{"E", op::kFloatDtypes}},
    .tensors = {op::out("c", "E[Q, M, N]"), op::in("a", "E[Q, M, K]").transposed_when("transpose_a"),
                op::in("b", "E[Q, K, N]").transposed_when("transpose_b")},
    .scalars = {op::flag("transpose_a").described("a is given as (Q, K, M)"),
                op::flag("transpose_b").described("b is given as (Q, N, K)"),
                op::flag("static_persistent", true)
                    .described("a persistent grid walks the tiles (TileGym's static persistent, its default)"),
                op::integer("config", -1)
                    .valid_when("config >= -1 && config < 3 * static_persistent")
                    .described("the persistent kernel's tiles: -1 picks them by shape, else an index of "
                               "kPersistentBmmTiles in kernels/gemm/bmm.hpp")},
    .launch = op::bind<launch_bmm>(),
    .parity = {{"bmm.bmm", "bmm", "Q=8 M=2048 N=2048 K=2048 E=f16 static_persistent=0"},
               {"bmm.static_persistent", "static_persistent_bmm",
                "Q=8 M=2048 N=2048 K=2048 E=f16 static_persistent=1"},
               {"bmm.static_persistent_ta", "static_persistent_bmm",
                "Q=8 M=2048 N=2048 K=2048 E=f16 static_persistent=1 transpose_a=1"},
               {"bmm.static_persistent_tb", "static_persistent_bmm",
                "Q=8 M=2048 N=2048 K=2048 E=f16 static_persistent=1 transpose_b=1"},
               {"bmm.static_persistent_tatb", "static_persistent_bmm",
                "Q=8 M=2048 N=2048 K=2048 E=f16 static_persistent=1 transpose_a=1 transpose_b=1"}},
    .configurations = {"Q=3 M=300 N=200 K={64,1000} E={f32,f16,bf16} static_persistent={0,1}",
                       "Q=2 M=300 N=200 K=64 E=f16 transpose_a={0,1} transpose_b={0,1} static_persistent={0,1}",
                       "Q=4 M=128 N=256 K=512 E=f16 config={0,1,2}"},
    .tilegym = {.name = "bmm",
                .signature = "a, b, transpose_a=False, transpose_b=False, static_persistent=True, **kwargs"},
};

const op::Registration registration{bmm_op};

}  // namespace cutile::kernels
