// Softmax over the last axis of a 2-D tensor: TileGym's four cutile kernels.
//   formula  y[r, :] = exp(x[r, :] - m) / Σ exp(x[r, :] - m), m = max x[r, :]; computed in f32 with the
//            approximate exp and the approximate, flush-to-zero division, stored as E
//   E        f32, f16 or bf16 (x and y share it)
//   runtime  x: (M, N), any strides; y: (M, N), any strides; M is never baked in, N only as COLS
//   COLS     softmax_row and softmax_gather: N when the launch bakes it (the C ABI does when N is TILE_N, as
//            TileGym compiles N in: the column mask of the row's gather then folds away), else dyn
//
//   kernel            TILE_N               grid                 rows per block
//   softmax_row       ≥ N, a power of two  (M, 1, 1)            one (multi-wave: M blocks in waves)
//   softmax_gather    ≥ N, a power of two  (min(4·SMs, M), 1, 1)  r = b, b + G, ... (persistent)
//   softmax_tma       ≥ N, a power of two  (min(2·SMs, M), 1, 1)  as softmax_gather
//   softmax_chunked   ≤ 8192, any N        (min(4·SMs, M), 1, 1)  as softmax_gather; CHUNKS ⌈N / TILE_N⌉
//                                                                  or dyn
//
// Columns past N read as -inf, so they add exp(-inf) = 0 to the sum and never win the max; stores of
// them are masked (scatters) or clipped (partition stores). softmax_gather and softmax_tma take their
// rows through for_each_tile over the (1, TILE_N) partition of y, whose tile grid is (M, 1) when
// TILE_N ≥ N, so tile t is row t. softmax_chunked, whose rows span several tiles, cannot: see there.
// Provenance: TileGym src/tilegym/ops/cutile/softmax.py (1.5.1): `_softmax_kernel_multi_wave_full_row_
// reg_cached_ldg`, `_softmax_kernel`, `_softmax_kernel_tma`, `_softmax_kernel_chunked`.
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

namespace detail {

inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// The normalisation of one row held in one tile (f32), along axis A: TileGym's max, exp, sum, divide.
template <int A, TileShape S>
Tile<float, S> softmax_of(const Tile<float, S>& x) {
  auto e = exp(x - max(x, axis<A>, keepdims), approx);   // S
  return div(e, sum(e, axis<A>, keepdims), approx_ftz);  // S
}

}  // namespace detail

/// Multi-wave: one row per tile block, gathered and scattered (`_softmax_kernel_multi_wave_...`).
template <Element E, int64_t TILE_N, int64_t COLS = dyn>
void softmax_row(Out<E, Shape<1, TILE_N>> y, In<E, Shape<dyn, COLS>> x) {
  auto [row, col] = y.tile_index();
  const auto cols = iota<int32_t, TILE_N>();                                     // (TILE_N)
  auto xf = cast<float>(x.gather(at(row, cols), {.padding = detail::kNegInf}));  // (TILE_N)
  y.scatter(at(zeros<int32_t>(), cols), cast<E>(detail::softmax_of<0>(xf)));     // (TILE_N)
}

/// Persistent gather: blocks stride over the rows, each row gathered and scattered (`_softmax_kernel`).
/// Escape hatch: for_each_tile decides which block owns row r, and the row goes out through
/// y.unchecked_scatter at (r, 0..TILE_N-1), the elements of that block's own tile t = (r, 0), as
/// TileGym's masked scatter writes them (a partition store would be a different memory path).
template <Element E, int64_t TILE_N, int64_t COLS = dyn>
void softmax_gather(OutTiles<E, Shape<1, TILE_N>> y, In<E, Shape<dyn, COLS>> x) {
  const auto cols = iota<int32_t, TILE_N>();  // (TILE_N)
  for_each_tile(y, linear, [&](const TileIndex<E, Shape<1, TILE_N>>& t) {
    const Int row = t.coords()[0];
    auto xf = cast<float>(x.gather(at(row, cols), {.padding = detail::kNegInf}));  // (TILE_N)
    y.unchecked_scatter(at(row, cols), cast<E>(detail::softmax_of<0>(xf)));        // (TILE_N)
  });
}

/// Persistent tile-space (TMA) loads and stores of whole rows (`_softmax_kernel_tma`).
template <Element E, int64_t TILE_N>
void softmax_tma(OutTiles<E, Shape<1, TILE_N>> y, In<E, Shape<dyn, dyn>> x) {
  for_each_tile(y, linear, [&](const TileIndex<E, Shape<1, TILE_N>>& t) {
    auto xf = cast<float>(x.load(tile<1, TILE_N>, {t.coords()[0], 0}, pad::neg_inf));  // (1, TILE_N)
    y.store(t, cast<E>(detail::softmax_of<1>(xf)));                                    // (1, TILE_N)
  });
}

/// Rows longer than a tile, in three passes over TILE_N-column chunks: the max, the sum of exponentials,
/// then the scaled exponentials by one reciprocal per row (`_softmax_kernel_chunked`). Persistent over
/// rows; the chunks of a row are read three times (L2 serves the later passes).
/// CHUNKS: the number of chunks per row, ⌈N / TILE_N⌉, when the launch knows it (1 for N ≤ TILE_N), else
/// dyn (read from x). TileGym bakes N, so its chunk loops have constant trip counts; with one chunk,
/// tileiras then reads it once for the three passes (with a runtime count it reads it three times: 0.57×
/// TileGym's speed at N = 1024 on the H200).
/// Escape hatch: the chunks are written with y.unchecked_scatter, because one block must own every chunk
/// of its row while for_each_tile hands out single tiles. No two blocks write one element: row r is
/// visited only by block r mod G, through the same strided loop that reads it.
template <Element E, int64_t TILE_N, int64_t CHUNKS = dyn>
void softmax_chunked(OutTiles<E, Shape<1, TILE_N>> y, In<E, Shape<dyn, dyn>> x) {
  using Column = Tile<float, Shape<1>>;
  const Int rows = x.template extent<0>();
  const auto chunks = [&] {
    if constexpr (CHUNKS == dyn)
      return (x.template extent<1>() + (TILE_N - 1)) / TILE_N;
    else
      return static_cast<int32_t>(CHUNKS);
  }();
  const auto offsets = iota<int32_t, TILE_N>();  // (TILE_N)
  loop(block_id<0>(), rows, num_blocks<0>(), std::tuple<>{}, [&](Int row, std::tuple<> none) {
    auto chunk = [&](const Int& c) {  // (TILE_N) f32
      return cast<float>(x.gather(at(row, offsets + c * TILE_N), {.padding = detail::kNegInf}));
    };
    const Column row_max = loop(0, chunks, full<float, 1>(detail::kNegInf), [&](Int c, Column m) {
      return maximum(m, max(chunk(c), axis<0>, keepdims));
    });
    const Column denominator = loop(0, chunks, zeros<float, 1>(), [&](Int c, Column s) {
      return s + sum(exp(chunk(c) - row_max, approx), axis<0>, keepdims);
    });
    const Column inverse = div(full<float, 1>(1.0), denominator, approx_ftz);
    loop(0, chunks, std::tuple<>{}, [&](Int c, std::tuple<> n) {
      y.unchecked_scatter(at(row, offsets + c * TILE_N), cast<E>(exp(chunk(c) - row_max, approx) * inverse));
      return n;
    });
    return none;
  });
}

/// The op (softmax.cpp): TileGym's softmax(x, use_tma, use_chunked, use_multi_wave).
extern const op::OpSpec softmax_op;

/// TileGym's kernel choice and launch policy: multi-wave, then chunked, then TMA, else the persistent
/// gather kernel; rows of more than 16384 columns take the chunked kernel whatever the flags say.
void launch_softmax(op::Target& target, const AnyTensor& y, const AnyTensor& x, bool use_tma, bool use_chunked,
                    bool use_multi_wave);

}  // namespace cutile::kernels
