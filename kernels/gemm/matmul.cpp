// matmul: the description and launcher of matmul.hpp. One instance per dtype, transpose pair and tile
// candidate of TileGym's H200 autotuning (its tilegym/ops/cutile/matmul.py).
#include <algorithm>

#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "gemm/matmul.hpp"

namespace cutile::kernels {
namespace {

constexpr int kGroup = 8;  // TileGym's GROUP_SIZE_M
static_assert(kMatmulTiles.size() == 4 && kPersistentMatmulTiles.size() == 8, "config's valid range below");

// The tiles TileGym's autotuner settles on for this shape on the H200 (bench/results/
// 2026-12-04_h200_matmul_autotune.json, TileGym's benchmark and test shapes): the persistent kernel
// always takes 128×128×64 on one CTA (256-wide tiles spill: 8–17× slower); the plain one 128×128×32,
// but for fp8 from 4096 on, where 256×256×64 on clusters of 4 is up to 5 % faster. The fp8 persistent
// kernel orders its stores, as cuTile Python's: 20–25 % faster than with overlapping ones, which
// tileiras compiles into two spilling copies of the loop (docs/porting-log.md, GEMM).
size_t chosen_tiles(int64_t m, int64_t n, op::Dtype dtype, bool static_persistent) {
  const bool fp8 = op::dtype_size(dtype) == 1;
  if (static_persistent) return fp8 ? 7 : 4;
  return fp8 && std::min(m, n) >= 4096 ? 2 : 0;
}

}  // namespace

void launch_matmul(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b,
                   bool trans_a, bool trans_b, bool static_persistent, int64_t config) {
  const int64_t m = c.shape()[0], n = c.shape()[1];
  const op::Dtype dtype = *op::dtype_of(a.element_type());
  const size_t index =
      config >= 0 ? static_cast<size_t>(config) : chosen_tiles(m, n, dtype, static_persistent);
  op::with_element<float, f16, bf16, f8e4m3fn, f8e5m2>(a.element_type(), [&]<class E>() {
    const Tensor<E> ct(c), at(a), bt(b);
    op::with_flag(trans_a, [&]<bool TA>() {
      op::with_flag(trans_b, [&]<bool TB>() {
        if (!static_persistent) {
          return op::with_index<kMatmulTiles.size()>(index, [&]<size_t I>() {
            constexpr GemmTiles t = kMatmulTiles[I];
            LaunchOptions options = t.options();
            options.grid =
                std::array<int64_t, 3>{t.tiles(m, n), 1, 1};  // for_block_tile: one block per tile
            target.launch(options, matmul<E, E, t.bm, t.bn, t.bk, kGroup, TA, TB>, ct.partition({t.bm, t.bn}),
                          at, bt);
          });
        }
        op::with_index<kPersistentMatmulTiles.size()>(index, [&]<size_t I>() {
          constexpr GemmTiles t = kPersistentMatmulTiles[I];
          LaunchOptions options = t.options();
          // TileGym: min(SMs / CTAs per cluster, tiles) blocks, times the occupancy
          const int64_t blocks = std::max<int64_t>(
              1, std::min<int64_t>(target.sm_count() / t.ctas, t.tiles(m, n)) * t.occupancy);
          options.grid = std::array<int64_t, 3>{blocks, 1, 1};
          target.launch(options, persistent_matmul<E, E, t.bm, t.bn, t.bk, kGroup, TA, TB, t.ordered_stores>,
                        ct.partition({t.bm, t.bn}), at, bt);
        });
      });
    });
  });
}

const op::OpSpec matmul_op{
    .name = "matmul",
    .family = "gemm",
    .doc =
        "c = op(a) @ op(b) on the tensor cores with f32 accumulation (f32 inputs as tf32), stored in the "
        "dtype; "
        "op(x) is x, or its transpose when x is given transposed. static_persistent walks the output tiles "
        "with a "
        "persistent grid in TileGym's grouped order; else one block per tile in that order.",
    .provenance = "TileGym src/tilegym/ops/cutile/matmul.py",
    .dtypes = {{"E",
                {op::Dtype::f32, op::Dtype::f16, op::Dtype::bf16, op::Dtype::f8e4m3fn, op::Dtype::f8e5m2}}},
    .tensors = {op::out("c", "E[M, N]"), op::in("a", "E[M, K]").transposed_when("trans_a"),
                op::in("b", "E[K, N]").transposed_when("trans_b")},
    .scalars = {op::flag("trans_a").described("a is given as (K, M)"),
                op::flag("trans_b").described("b is given as (N, K)"),
                op::flag("static_persistent")
                    .described("a persistent grid walks the tiles (TileGym's static persistent)"),
                op::integer("config", -1)
                    .valid_when("config >= -1 && config < 4 + 4 * static_persistent")
                    .described("the tiles: -1 picks them by shape, else an index of kMatmulTiles (or, static "
                               "persistent, kPersistentMatmulTiles) in kernels/gemm/matmul.hpp")},
    .launch = op::bind<launch_matmul>(),
    .parity = {{"matmul.matmul", "matmul", "M=4096 N=4096 K=4096 E=f16"},
               {"matmul.static_persistent", "persistent_matmul",
                "M=4096 N=4096 K=4096 E=f16 static_persistent=1"}},
    .configurations = {"M=300 N=200 K={64,1000} E={f32,f16,bf16} static_persistent={0,1}",
                       "M=300 N=200 K=64 E=f8e5m2 trans_a={0,1} trans_b={0,1} static_persistent={0,1}",
                       "M=5000 N=5000 K=64 E=f8e4m3fn static_persistent={0,1}"},
    .tilegym = {.name = "matmul",
                .signature =
                    "a, b, trans_a=False, trans_b=False, static_persistent=None, use_tma=False, **kwargs",
                .ignored = "use_tma"},
};

const op::Registration registration{matmul_op};

}  // namespace cutile::kernels
