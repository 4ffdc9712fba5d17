// GEGLU: the first half of the split dimension gated by the GELU of the second, forward and backward.
//   formula  y = a · gelu(b); da = dy · gelu(b), db = dy · a · gelu'(b), with gelu and gelu' of
//            gelu.hpp in the chosen form; computed in f32 (TileGym computes the forward in E)
//   E        f32, f16 or bf16 (all tensors share it)
//   BM, BN   the (rows, columns) tile, powers of two (the launcher: BM · BN = 1024, BN the smallest of
//            16, 64, 256, 1024 that covers a row, so short rows still fill a block)
//   runtime  x (M, 2N) (TileGym's x split along `dim` is (prod(shape[:dim]), prod(shape[dim:]))) is read
//            as its halves a = x[:, :N] and b = x[:, N:], (M, N) views with x's strides; y, dy: (M, N),
//            any strides; dx: x's (M, 2N) seen as (M, 2, N), so that one (BM, 2, BN) tile holds both
//            halves' gradients at the same columns (the halves interleave in memory, so they cannot be
//            two outputs that the launch keeps apart)
//   grid     (cdiv(M, BM), cdiv(N, BN), 1); overhanging rows and columns load as 0 and their stores are
//            clipped
// Provenance: TileGym src/tilegym/ops/cutile/activation/geglu.py (1.5.1), `_geglu_fwd_kernel` and
// `_geglu_bwd_kernel`, which gather 256 flattened elements per block through m = i / N, n = i % N; here
// each half is a strided 2-D view read with tile-space loads, so no index arithmetic is needed.
#pragma once

#include <cstdint>

#include "activation/gelu.hpp"
#include "cutile/cutile.hpp"

namespace cutile::kernels {

template <Element E, GeluApprox A, int64_t BM, int64_t BN>
void geglu(Out<E, Shape<BM, BN>> y, In<E, Shape<dyn, dyn>> a, In<E, Shape<dyn, dyn>> b) {
  auto [i, j] = y.tile_index();
  auto af = cast<float>(a.load(tile<BM, BN>, {i, j}, pad::zero));  // (BM, BN)
  auto bf = cast<float>(b.load(tile<BM, BN>, {i, j}, pad::zero));  // (BM, BN)
  y.store(cast<E>(af * gelu_math::forward<A>(bf)));                // (BM, BN)
}

template <Element E, GeluApprox A, int64_t BM, int64_t BN>
void geglu_backward(Out<E, Shape<BM, 2, BN>> dx, In<E, Shape<dyn, dyn>> dy, In<E, Shape<dyn, dyn>> a,
                    In<E, Shape<dyn, dyn>> b) {
  auto [i, half, j] = dx.tile_index();
  auto dyf = cast<float>(dy.load(tile<BM, BN>, {i, j}, pad::zero));              // (BM, BN)
  auto af = cast<float>(a.load(tile<BM, BN>, {i, j}, pad::zero));                // (BM, BN)
  auto bf = cast<float>(b.load(tile<BM, BN>, {i, j}, pad::zero));                // (BM, BN)
  auto da = reshape<Shape<BM, 1, BN>>(dyf * gelu_math::forward<A>(bf));          // (BM, 1, BN)
  auto db = reshape<Shape<BM, 1, BN>>(dyf * af * gelu_math::derivative<A>(bf));  // (BM, 1, BN)
  dx.store(cast<E>(cat<1>(da, db)));                                             // (BM, 2, BN)
}

/// The ops (geglu.cpp).
extern const op::OpSpec geglu_op;
extern const op::OpSpec geglu_backward_op;

/// (BM, BN) tiles of 1024 elements, BN the smallest of 16, 64, 256 and 1024 that covers a row.
void launch_geglu(op::Target& target, const AnyTensor& y, const AnyTensor& x, GeluApprox approximate);
/// The forward's tiles over dx seen as (M, 2, N).
void launch_geglu_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x,
                           GeluApprox approximate);

}  // namespace cutile::kernels
