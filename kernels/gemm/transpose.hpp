// Transpose of a matrix.
//   formula   y[n, m] = x[m, n], in E
//   E         any element type of the C ABI's float set (f32, f16, bf16)
//   BM, BN    the input tile (BM, BN); the output tile is (BN, BM)
//   runtime   x: (M, N), any strides; y: (N, M), any strides, written through its (BN, BM) partition
//   grid      (⌈N/BN⌉, ⌈M/BM⌉, 1): block (j, i) loads x's tile (i, j), zero-padded past the edges, and
//             stores its transpose as y's tile (j, i), clipped at the edges
// Provenance: TileGym src/tilegym/ops/cutile/transpose.py (1.5.1), `_transpose_kernel`.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

template <Element E, int64_t BM, int64_t BN>
void transpose(Out<E, Shape<BN, BM>> y, In<E, Shape<dyn, dyn>> x) {
  auto [j, i] = y.tile_index();
  y.store(permute<1, 0>(x.load(tile<BM, BN>, {i, j}, pad::zero)));  // (BN, BM)
}

/// The ops (transpose.cpp): y = xᵀ, and its backward dx = dyᵀ.
extern const op::OpSpec transpose_op;
extern const op::OpSpec transpose_backward_op;

/// TileGym's tiles: 64×64, or 128×128 for f16 and bf16 when both sides are at least 4096.
void launch_transpose(op::Target& target, const AnyTensor& y, const AnyTensor& x);

}  // namespace cutile::kernels
