// SwiGLU: silu(a) · b for two tensors of one shape, forward and backward, one row (or one TILE-wide
// piece of a row) per tile block.
//   formula  s = σ(a) = 1 / (1 + e^−a) (approximate division, flushing subnormals);
//            c = E(a · s) · b, the product taken in E as TileGym does; da = dc · b · s · (1 + a·(1 − s)),
//            db = dc · a · s, in f32
//   E        f32, f16 or bf16 (all tensors share it)
//   TILE     a power of two (the launcher: forward ≥ the row length up to 16384; backward
//            next_power_of_2(n / ⌈SMs / rows⌉), so few rows still spread over every SM)
//   runtime  a, b, dc: (rows, n), any strides; c, da, db: (rows, n), any strides; the forward gathers
//            and scatters within c's (1, TILE) tile, the backward loads and stores (1, TILE) tiles
//   grid     (rows, cdiv(n, TILE), 1); columns past n read as 0 and are not written
// Provenance: TileGym src/tilegym/ops/cutile/swiglu.py (1.5.1), `_swiglu_forward_kernel` (row gathers
// and a scatter, launched with occupancy 1 and 8 worker warps) and `_swiglu_backward_kernel` (tile-space
// loads, 2-D grid), each on TileGym's memory path. TileGym compiles n in and drops the bounds masks when
// it is a power of two; n is a runtime value here, so the masks stay.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

namespace swiglu_math {

template <TileShape S>
Tile<float, S> sigmoid(const Tile<float, S>& a) {
  return div(scalar<float>(1.0), 1.0 + exp(-a), approx_ftz);
}

}  // namespace swiglu_math

template <Element E, int64_t TILE>
void swiglu(Out<E, Shape<1, TILE>> c, In<E, Shape<dyn, dyn>> a, In<E, Shape<dyn, dyn>> b) {
  auto [row, col] = c.tile_index();
  auto offsets = iota<int32_t, TILE>();            // (TILE)
  auto cols = col * TILE + offsets;                // (TILE)
  auto af = cast<float>(a.gather(at(row, cols)));  // (TILE)
  auto bt = b.gather(at(row, cols));               // (TILE)
  c.scatter(at(zeros<int32_t>(), offsets), cast<E>(af * swiglu_math::sigmoid(af)) * bt);
}

template <Element E, int64_t TILE>
void swiglu_backward(Out<E, Shape<1, TILE>> da, Out<E, Shape<1, TILE>> db, In<E, Shape<dyn, dyn>> dc,
                     In<E, Shape<dyn, dyn>> a, In<E, Shape<dyn, dyn>> b) {
  auto [row, col] = da.tile_index();
  auto dcf = cast<float>(dc.load(tile<1, TILE>, {row, col}, pad::zero));  // (1, TILE)
  auto af = cast<float>(a.load(tile<1, TILE>, {row, col}, pad::zero));    // (1, TILE)
  auto bf = cast<float>(b.load(tile<1, TILE>, {row, col}, pad::zero));    // (1, TILE)
  auto s = swiglu_math::sigmoid(af);                                      // (1, TILE)
  db.store(cast<E>(dcf * (af * s)));
  auto grad = s * fma(af, 1.0 - s, broadcast_to<Shape<1, TILE>>(scalar<float>(1.0)));  // (1, TILE)
  da.store(cast<E>(dcf * bf * grad));
}

/// The ops (swiglu.cpp).
extern const op::OpSpec swiglu_op;
extern const op::OpSpec swiglu_backward_op;

/// TILE = next_power_of_2(n) in [64, 16384], with TileGym's hints: occupancy 1, 8 worker warps.
void launch_swiglu(op::Target& target, const AnyTensor& c, const AnyTensor& a, const AnyTensor& b);
/// TileGym's width: each row in ⌈SMs / rows⌉ pieces, TILE = next_power_of_2(n / pieces) in [64, 16384].
void launch_swiglu_backward(op::Target& target, const AnyTensor& da, const AnyTensor& db, const AnyTensor& dc,
                            const AnyTensor& a, const AnyTensor& b);

}  // namespace cutile::kernels
