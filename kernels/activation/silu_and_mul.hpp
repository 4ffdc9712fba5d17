// SiLU-and-mul: silu of the first half of the last dimension times the second half, forward and
// backward, one row (or one TILE-wide piece of a row) per tile block.
//   formula  s = σ(a) = 1 / (1 + 2^(−a·log2 e)), y = a · s · b; da = dy · b · (s + a·s·(1 − s)),
//            db = dy · a · s; all in f32, with exp2 and the multiply flushing subnormals and the
//            division approximate (TileGym's modes)
//   E        f32, f16 or bf16 (all tensors share it)
//   TILE     a power of two ≥ the half width H up to 16384 (wider rows take several tiles)
//   runtime  the input flattened to (M, 2H) is read as its halves a = x[:, :H] and b = x[:, H:], (M, H)
//            views with x's strides; y, dy: (M, H), any strides; dx: (M, 2H) seen as (M, 2, H), so that
//            one (1, 2, TILE) tile holds both halves' gradients at the same columns (the halves
//            interleave in memory, so they cannot be two outputs that the launch keeps apart)
//   grid     (M, cdiv(H, TILE), 1); columns past H load as 0 and their stores are clipped
// Provenance: TileGym src/tilegym/ops/cutile/silu_and_mul.py (1.5.1), `_silu_and_mul_kernel_row_wise`
// and `_silu_and_mul_backward_kernel_row_wise` (row gathers of next_power_of_2(H) columns), with
// tile-space loads; the backward writes dx whole, where TileGym concatenates da and db after.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"

namespace cutile::kernels {

namespace silu_and_mul_math {

inline constexpr double kLog2E = 1.4426950408889634;

template <TileShape S>
Tile<float, S> sigmoid(const Tile<float, S>& a) {
  auto e = exp2(mul(-a, scalar<float>(kLog2E), ftz), ftz);
  return div(scalar<float>(1.0), 1.0 + e, approx_ftz);
}

}  // namespace silu_and_mul_math

template <Element E, int64_t TILE>
void silu_and_mul(Out<E, Shape<1, TILE>> y, In<E, Shape<dyn, dyn>> a, In<E, Shape<dyn, dyn>> b) {
  auto [row, col] = y.tile_index();
  auto af = cast<float>(a.load(tile<1, TILE>, {row, col}, pad::zero));  // (1, TILE)
  auto bf = cast<float>(b.load(tile<1, TILE>, {row, col}, pad::zero));  // (1, TILE)
  y.store(cast<E>(af * silu_and_mul_math::sigmoid(af) * bf));           // (1, TILE)
}

template <Element E, int64_t TILE>
void silu_and_mul_backward(Out<E, Shape<1, 2, TILE>> dx, In<E, Shape<dyn, dyn>> dy, In<E, Shape<dyn, dyn>> a,
                           In<E, Shape<dyn, dyn>> b) {
  auto [row, half, col] = dx.tile_index();
  auto dyf = cast<float>(dy.load(tile<1, TILE>, {row, col}, pad::zero));  // (1, TILE)
  auto af = cast<float>(a.load(tile<1, TILE>, {row, col}, pad::zero));    // (1, TILE)
  auto bf = cast<float>(b.load(tile<1, TILE>, {row, col}, pad::zero));    // (1, TILE)
  auto s = silu_and_mul_math::sigmoid(af);                                // (1, TILE)
  auto silu = af * s;                                                     // (1, TILE)
  auto grad = fma(silu, 1.0 + (-s), s);                                   // (1, TILE)
  auto da = reshape<Shape<1, 1, TILE>>(dyf * (bf * grad));                // (1, 1, TILE)
  auto db = reshape<Shape<1, 1, TILE>>(dyf * silu);                       // (1, 1, TILE)
  dx.store(cast<E>(cat<1>(da, db)));                                      // (1, 2, TILE)
}

}  // namespace cutile::kernels
