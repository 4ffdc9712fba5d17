// Small kernels for the tile vocabulary beyond the examples: while_, cat, extract, argmax/argmin, scans,
// batched mma, fp8 fast accumulation, logical and bitwise not, lists of tensors, raw pointers. Shared by the
// ir (golden text), aot (tileiras) and interp (numerics through cutile::launch on the CPU) tiers.
#pragma once

#include <cmath>
#include <tuple>

#include "cutile/cutile.hpp"
#include "support/dsl_kernels.hpp"

namespace cutile::test_support::vocabulary_kernels {

namespace ct = cutile;
using Dyn = ct::Shape<ct::dyn>;
using Dyn2 = ct::Shape<ct::dyn, ct::dyn>;

// Collatz steps of x[i] (a positive integer): a while_ loop on scalar state.
inline void collatz_steps(ct::Out<int32_t, ct::Shape<1>> steps, ct::In<int32_t, Dyn> x) {
  auto [i] = steps.tile_index();
  const ct::Int start = ct::reshape<ct::Shape<>>(x.load(ct::tile<1>, {i}));
  auto [n, count] = ct::while_(
      std::tuple{start, ct::Int(ct::full<int32_t>(0))},
      [](std::tuple<ct::Int, ct::Int> s) { return std::get<0>(s) != 1; },
      [](std::tuple<ct::Int, ct::Int> s) {
        auto [v, c] = s;
        ct::Int next = ct::cond(
            v % 2 == 0, [&] { return v / 2; }, [&] { return v * 3 + 1; });
        return std::tuple{next, c + 1};
      });
  steps.store(ct::reshape<ct::Shape<1>>(count));
}

// y's tile i is x's tiles 2i+1 and 2i swapped (cat), then its second quarter (extract) added to every
// quarter.
inline void swap_halves(ct::Out<float, ct::Shape<32>> y, ct::In<float, Dyn> x) {
  auto [i] = y.tile_index();
  auto first = x.load(ct::tile<16>, {i * 2}, ct::pad::zero);                                     // (16)
  auto second = x.load(ct::tile<16>, {i * 2 + 1}, ct::pad::zero);                                // (16)
  auto joined = ct::cat<0>(second, first);                                                       // (32)
  auto quarter = ct::extract<ct::Shape<8>>(joined, {ct::Int(ct::full<int32_t>(1))});             // (8)
  auto quarters = ct::reshape<ct::Shape<4, 8>>(joined) + ct::reshape<ct::Shape<1, 8>>(quarter);  // (4, 8)
  y.store(ct::reshape<ct::Shape<32>>(quarters));
}

// y's tile is x's (8, 16) tile with its column halves swapped, through a 3-D extract per half (one index
// per dimension) and cat.
inline void swap_column_halves(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, Dyn2> x) {
  auto [r, c] = y.tile_index();
  auto t = ct::reshape<ct::Shape<8, 2, 8>>(x.load(ct::tile<8, 16>, {r, c}, ct::pad::zero));  // (8, 2, 8)
  const ct::Int zero = ct::full<int32_t>(0), one = ct::full<int32_t>(1);
  auto left = ct::extract<ct::Shape<8, 1, 8>>(t, {zero, zero, zero});  // (8, 1, 8)
  auto right = ct::extract<ct::Shape<8, 1, 8>>(t, {zero, one, zero});  // (8, 1, 8)
  y.store(ct::reshape<ct::Shape<8, 16>>(ct::cat<1>(right, left)));
}

// Per row of a (4, 64) tile: the positions of its largest and smallest elements.
inline void row_arg_extremes(ct::Out<int32_t, ct::Shape<4, 2>> out, ct::In<float, Dyn2> x) {
  auto [r, c] = out.tile_index();
  auto v = x.load(ct::tile<4, 64>, {r, 0}, ct::pad::nan);              // (4, 64)
  auto hi = ct::reshape<ct::Shape<4, 1>>(ct::argmax(v, ct::axis<1>));  // (4, 1)
  auto lo = ct::reshape<ct::Shape<4, 1>>(ct::argmin(v, ct::axis<1>));  // (4, 1)
  out.store(ct::cat<1>(hi, lo));
}

// Per row: the running sum from the left plus the running maximum from the right.
inline void row_scans(ct::Out<float, ct::Shape<4, 64>> y, ct::In<float, Dyn2> x) {
  auto [r, c] = y.tile_index();
  auto v = x.load(ct::tile<4, 64>, {r, c}, ct::pad::zero);  // (4, 64)
  auto from_right = ct::scan(v, ct::axis<1>, ct::reverse, -INFINITY,
                             [](auto a, auto b) { return ct::maximum(a, b); });  // (4, 64)
  y.store(ct::cumsum(v, ct::axis<1>) + from_right);
}

// acc[b] = a[b] @ w[b] for 2 batches of 16 x 32 by 32 x 16 (f16 operands, f32 accumulator).
inline void batched_matmul(ct::Out<float, ct::Shape<2, 16, 16>> y,
                           ct::In<ct::f16, ct::Shape<ct::dyn, ct::dyn, ct::dyn>> a,
                           ct::In<ct::f16, ct::Shape<ct::dyn, ct::dyn, ct::dyn>> w) {
  auto [b, i, j] = y.tile_index();
  y.store(ct::mma(a.load(ct::tile<2, 16, 32>, {b, i, 0}, ct::pad::zero),
                  w.load(ct::tile<2, 32, 16>, {b, 0, j}, ct::pad::zero), ct::zeros<float, 2, 16, 16>()));
}

// y = a @ w for one 16 x 32 by 32 x 16 tile pair of fp8 e4m3 operands, accumulated in f32 with the
// tensor cores' fast fp8 accumulation.
inline void fp8_matmul_fast_acc(ct::Out<float, ct::Shape<16, 16>> y, ct::In<ct::f8e4m3fn, Dyn2> a,
                                ct::In<ct::f8e4m3fn, Dyn2> w) {
  auto [i, j] = y.tile_index();
  y.store(ct::mma_fast_acc(a.load(ct::tile<16, 32>, {i, 0}, ct::pad::zero), w.load(ct::tile<32, 16>, {0, j}, ct::pad::zero),
                           ct::zeros<float, 16, 16>()));
}

// Logical not on a mask, bitwise not on integers: y = x where !(x < 0) else ~x.
inline void not_ops(ct::Out<int32_t, ct::Shape<16>> y, ct::In<int32_t, Dyn> x) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  y.store(ct::where(!(v < 0), v, ~v));
}

// y = Σ_g xs[g] over a list of equally shaped vectors: InList members read in a runtime loop.
inline void sum_of_members(ct::Out<float, ct::Shape<16>> y, ct::InList<float, Dyn> xs) {
  auto [i] = y.tile_index();
  using Acc = ct::Tile<float, ct::Shape<16>>;
  y.store(ct::loop(0, xs.size(), ct::zeros<float, 16>(), [&](ct::Int g, Acc sum) {
    return sum + xs.member(g).load(ct::tile<16>, {i}, ct::pad::zero);
  }));
}

// Escape hatch, through raw pointers: y[to[k]] = 2·x[k] and counts[to[k] % 4] += 1 for k < n (16 per
// block; the grid is the caller's).
inline void raw_scatter_count(ct::RawPtr<float> y, ct::RawPtr<int32_t> counts, ct::RawPtr<float> x,
                              ct::In<int32_t, Dyn> to, ct::Int n) {
  const auto k = ct::iota<int32_t, 16>() + ct::block_id<0>() * 16;  // (16)
  const auto live = k < n;
  const auto dest = to.gather(k);  // (16); 0 past the end
  y.raw_store(dest, x.raw_load(k, live) * 2.0f, live);
  counts.raw_atomic_add(dest % 4, ct::where(live, ct::full<int32_t, 16>(1), ct::full<int32_t, 16>(0)));
}

// Escape hatch, through a gather-scatter view: y[to[r], 32j + c] = x[r, 32j + c] for the rows r of block
// (i, j), wherever to[r] lies (a row permutation of x). Rows past the end go to row M, which is not written.
inline void scatter_rows(ct::Out<float, ct::Shape<16, 32>> y, ct::In<float, Dyn2> x, ct::In<int32_t, Dyn> to) {
  auto [i, j] = y.tile_index();
  const ct::Int m = x.extent<0>();
  const auto r = ct::iota<int32_t, 16>() + i * 16;  // (16)
  const auto rows = ct::where(r < m, to.load(ct::tile<16>, {i}, ct::pad::zero), ct::broadcast_to<ct::Shape<16>>(m));
  y.unchecked_store_scattered<0>(x.load(ct::tile<16, 32>, {i, j}, ct::pad::zero), rows, {0, j});
}

inline std::vector<TracedKernel> all() {
  return {
      {"collatz_steps",
       [] {
         return trace_with(&collatz_steps, {contiguous(1), contiguous(1)});
       }},
      {"swap_halves",
       [] {
         return trace_with(&swap_halves, {contiguous(1), contiguous(1)});
       }},
      {"swap_column_halves",
       [] {
         return trace_with(&swap_column_halves, {contiguous(2), contiguous(2)});
       }},
      {"row_arg_extremes",
       [] {
         return trace_with(&row_arg_extremes, {contiguous(2), contiguous(2)});
       }},
      {"row_scans",
       [] {
         return trace_with(&row_scans, {contiguous(2), contiguous(2)});
       }},
      {"batched_matmul",
       [] {
         return trace_with(&batched_matmul, {contiguous(3), contiguous(3), contiguous(3)});
       }},
      {"fp8_matmul_fast_acc",
       [] {
         return trace_with(&fp8_matmul_fast_acc, {contiguous(2), contiguous(2), contiguous(2)});
       }},
      {"sum_of_members",
       [] {
         return trace_with(&sum_of_members, {contiguous(1), contiguous(1)});
       }},
      {"raw_scatter_count",
       [] {
         return trace_with(&raw_scatter_count, {contiguous(1), contiguous(1), contiguous(1), contiguous(1), {}});
       }},
      {"scatter_rows",
       [] {
         return trace_with(&scatter_rows, {contiguous(2), contiguous(2), contiguous(1)});
       }},
      {"not_ops",
       [] {
         return trace_with(&not_ops, {contiguous(1), contiguous(1)});
       }},
  };
}

}  // namespace cutile::test_support::vocabulary_kernels
