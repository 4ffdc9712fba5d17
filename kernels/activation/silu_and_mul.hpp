// SiLU-and-mul: silu of the first half of the last dimension times the second half, forward and
// backward, one row (or one TILE-wide piece of a row) per tile block.
//   formula  s = σ(a) = 1 / (1 + 2^(−a·log2 e)), y = a · s · b; da = dy · b · (s + a·s·(1 − s)),
//            db = dy · a · s; all in f32, with exp2 and the multiply flushing subnormals and the
//            division approximate (TileGym's modes)
//   E        f32, f16 or bf16 (all tensors share it)
//   TILE     a power of two ≥ the half width H up to 16384 (wider rows take several tiles)
//   runtime  x: (M, 2H), any strides, gathered at columns c (a) and c + H (b), H = y's (dy's) width; y,
//            dy: (M, H), any strides; dx: (M, 2H) seen as (M, 2, H), so that one (1, 2, TILE) tile holds
//            both halves' gradients at the same columns (the halves interleave in memory, so they cannot
//            be two outputs that the launch keeps apart); y is scattered within the block's tile, dx's
//            tile is stored whole
//   grid     (M, cdiv(H, TILE), 1); a's columns past H gather b's elements (inside x, as TileGym's) and
//            the scatter and the store leave every column past H alone
// Provenance: TileGym src/tilegym/ops/cutile/silu_and_mul.py (1.5.1), `_silu_and_mul_kernel_row_wise`
// and `_silu_and_mul_backward_kernel_row_wise` (row gathers of next_power_of_2(H) columns). The backward
// stores da and db as one (1, 2, TILE) tile of dx, where TileGym scatters two arrays and concatenates
// them after. Two scatters into dx would chain through its token (tileiras puts a block barrier between
// them), and one (2, TILE) scatter makes tileiras 13.4 time out (> 120 s) with the 2-CTA hint of rows
// over 8 KiB.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

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
void silu_and_mul(Out<E, Shape<1, TILE>> y, In<E, Shape<dyn, dyn>> x) {
  auto [row, col] = y.tile_index();
  auto offsets = iota<int32_t, TILE>();                                     // (TILE)
  auto cols = col * TILE + offsets;                                         // (TILE)
  auto af = cast<float>(x.gather(at(row, cols)));                           // (TILE)
  auto bf = cast<float>(x.gather(at(row, cols + y.template extent<1>())));  // (TILE)
  y.scatter(at(zeros<int32_t>(), offsets), cast<E>(af * silu_and_mul_math::sigmoid(af) * bf));
}

template <Element E, int64_t TILE>
void silu_and_mul_backward(Out<E, Shape<1, 2, TILE>> dx, In<E, Shape<dyn, dyn>> dy,
                           In<E, Shape<dyn, dyn>> x) {
  auto [row, half, col] = dx.tile_index();
  auto offsets = iota<int32_t, TILE>();                                         // (TILE)
  auto cols = col * TILE + offsets;                                             // (TILE)
  auto dyf = cast<float>(dy.gather(at(row, cols)));                             // (TILE)
  auto af = cast<float>(x.gather(at(row, cols)));                               // (TILE)
  auto bf = cast<float>(x.gather(at(row, cols + dy.template extent<1>())));     // (TILE)
  auto s = silu_and_mul_math::sigmoid(af);                                      // (TILE)
  auto silu = af * s;                                                           // (TILE)
  auto da = reshape<Shape<1, 1, TILE>>(dyf * (bf * fma(silu, 1.0 + (-s), s)));  // (1, 1, TILE)
  auto db = reshape<Shape<1, 1, TILE>>(dyf * silu);                             // (1, 1, TILE)
  dx.store(cast<E>(cat<1>(da, db)));                                            // (1, 2, TILE)
}

/// The ops (silu_and_mul.cpp).
extern const op::OpSpec silu_and_mul_op;
extern const op::OpSpec silu_and_mul_backward_op;

/// TILE = next_power_of_2(H) in [64, 16384], with TileGym's sm_90 hints by the bytes of a row tile: 2 CTAs
/// past 8 KiB, 8 worker warps past 2 KiB.
void launch_silu_and_mul(op::Target& target, const AnyTensor& y, const AnyTensor& x);
/// The forward's tile and hints over dx seen as (M, 2, H).
void launch_silu_and_mul_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x);

}  // namespace cutile::kernels
