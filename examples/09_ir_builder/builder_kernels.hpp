// Rung 09: three kernels written directly with the IR builder, below the DSL: views and partitions, loads
// and stores, elementwise math, reductions, a K loop with mmaf. Each function returns a module with one
// entry, named after the kernel; the test tiers use them too.
#pragma once

#include <memory>

#include "cutile/ir/module.hpp"

namespace examples {

namespace ir = cutile::ir;

/// c[i] = a[i] + b[i].
/// Kernel "vector_add"(a, b, c: ptr<E>, n: i32); grid (cdiv(n, TILE), 1, 1).
std::unique_ptr<ir::Module> vector_add_module(ir::ElementType element, int tile);

/// y[r, :] = softmax(x[r, :]) computed in f32; one tile block per row, the row fits one tile
/// (TILE_N ≥ cols, power of two); padding with -inf keeps the tail out of max and sum.
/// Kernel "row_softmax"(x, y: ptr<E>, rows, cols, x_row_stride, y_row_stride: i32); grid (rows, 1, 1).
std::unique_ptr<ir::Module> row_softmax_module(ir::ElementType element, int tile_n);

/// c = a @ b with f32 accumulation; a (M, K), b (K, N), c (M, N), all row-major with unit inner stride.
/// Kernel "tiled_gemm"(a, b, c: ptr<E>, m, n, k, lda, ldb, ldc: i32); grid (cdiv(M, BM), cdiv(N, BN), 1).
std::unique_ptr<ir::Module> tiled_gemm_module(ir::ElementType element, int bm, int bn, int bk);

}  // namespace examples
