// Kernels of the memory vocabulary — permuted loads and partitions, gathers, scatters, atomics — shared
// by the ir (golden text), aot (tileiras) and interp (numerics) tiers.
#pragma once

#include <vector>

#include "cutile/cutile.hpp"
#include "support/dsl_kernels.hpp"

namespace cutile::test_support::memory_kernels {

namespace ct = cutile;
using Dyn1 = ct::Shape<ct::dyn>;
using Dyn2 = ct::Shape<ct::dyn, ct::dyn>;

// y = xᵀ through a transposed load: tile (i, j) of y is tile (j, i) of x read with order<1, 0>.
inline void load_transposed(ct::Out<float, ct::Shape<32, 16>> y, ct::In<float, Dyn2> x) {
  auto [i, j] = y.tile_index();
  y.store(x.load(ct::tile<32, 16>, ct::order<1, 0>, {i, j}, ct::pad::zero, {.latency = 2}));
}

// y = xᵀ through a transposed output partition: each block stores x's tile (i, j) as it is loaded.
inline void store_transposed(ct::Out<float, ct::Shape<16, 32>, ct::Order<1, 0>> y, ct::In<float, Dyn2> x) {
  auto [i, j] = y.tile_index();
  y.store(x.load(ct::tile<16, 32>, {i, j}));
}

// y[r, c] = x[rows[r], c]: a row gather; row ids outside x (negative or too large) read -1.5.
inline void gather_rows(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, Dyn2> x,
                        ct::In<int32_t, Dyn1> rows) {
  auto [i, j] = y.tile_index();
  auto r = ct::reshape<ct::Shape<8, 1>>(rows.load(ct::tile<8>, {i}, ct::pad::zero));  // (8, 1)
  auto c = ct::reshape<ct::Shape<1, 16>>(ct::iota<int32_t, 16>() + j * 16);           // (1, 16)
  y.store(x.gather(ct::at(r, c), {.padding = -1.5, .latency = 3}));
}

// y[k] = x[idx[k]] where keep[k] != 0, else 7; 64-bit indices.
inline void gather_masked(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x, ct::In<int64_t, Dyn1> idx,
                          ct::In<int32_t, Dyn1> keep) {
  auto [i] = y.tile_index();
  auto k = idx.load(ct::tile<16>, {i}, ct::pad::zero);
  auto m = keep.load(ct::tile<16>, {i}, ct::pad::zero) != 0;
  y.store(x.gather(ct::at(k), m, {.padding = 7}));
}

// Each block writes its tile of x reversed: y[16i + 15 - k] = x[16i + k], a scatter confined to the tile.
inline void scatter_reversed(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x) {
  auto [i] = y.tile_index();
  y.scatter(ct::at(15 - ct::iota<int32_t, 16>()), x.load(ct::tile<16>, {i}, ct::pad::zero));
}

// Coordinates past the tile are dropped: only y[16i + 8 .. 16i + 15] = x[16i .. 16i + 7] are written.
inline void scatter_shifted(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x) {
  auto [i] = y.tile_index();
  y.scatter(ct::at(ct::iota<int32_t, 16>() + 8), x.load(ct::tile<16>, {i}));
}

// In place, each row of 16 swaps its halves: each half of the block's (2, 16) tile is its own partial load
// and store (a (2, 8) tile of the output cut into halves).
inline void swap_halves(ct::Out<float, ct::Shape<2, 16>> y) {
  auto lo = y.load(ct::tile<2, 8>, {0, 0}, ct::pad::zero);  // (2, 8)
  auto hi = y.load(ct::tile<2, 8>, {0, 1}, ct::pad::zero);  // (2, 8)
  y.store(ct::tile<2, 8>, {0, 0}, hi);
  y.store(ct::tile<2, 8>, {0, 1}, lo);
}

// A part outside the block's tile: refused while tracing.
inline void part_outside(ct::Out<float, ct::Shape<2, 16>> y) {
  y.store(ct::tile<2, 8>, {0, 2}, y.load(ct::tile<2, 8>, {0, 0}));
}

// y[perm[k]] = x[k] for the whole tensor: writes land in other blocks' tiles (an escape hatch). Lanes
// past the end get index -1, which the bounds mask drops.
inline void scatter_permuted(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x,
                             ct::In<int32_t, Dyn1> perm) {
  auto [i] = y.tile_index();
  auto k = ct::iota<int32_t, 16>() + i * 16;
  auto p =
      ct::where(k < x.extent<0>(), perm.load(ct::tile<16>, {i}, ct::pad::zero), ct::full<int32_t, 16>(-1));
  y.unchecked_scatter(ct::at(p), x.load(ct::tile<16>, {i}));
}

// As scatter_permuted from a persistent kernel: the blocks stride over the tiles of 16 and scatter
// each through the OutTiles escape hatch.
inline void scatter_permuted_persistent(ct::OutTiles<float, ct::Shape<16>> y, ct::In<float, Dyn1> x,
                                        ct::In<int32_t, Dyn1> perm) {
  const ct::Int tiles = (x.extent<0>() + 15) / 16;
  ct::loop(ct::block_id<0>(), tiles, ct::num_blocks<0>(), std::tuple<>{}, [&](ct::Int i, std::tuple<> none) {
    auto k = ct::iota<int32_t, 16>() + i * 16;
    auto p =
        ct::where(k < x.extent<0>(), perm.load(ct::tile<16>, {i}, ct::pad::zero), ct::full<int32_t, 16>(-1));
    y.unchecked_scatter(ct::at(p), x.load(ct::tile<16>, {i}));
    return none;
  });
}

// Block i writes tile n - 1 - i: the tiles of y in reverse (an escape hatch).
inline void store_mirrored(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x) {
  auto [i] = y.tile_index();
  y.unchecked_store({ct::num_blocks<0>() - 1 - i}, x.load(ct::tile<16>, {i}, ct::pad::zero));
}

// counts[v] += 1 for each value v of the block's 16 (values outside counts are skipped; lanes past the
// end are masked off). Launched on a grid of ⌈n / 16⌉ blocks.
inline void histogram(ct::Atomic<int32_t, Dyn1> counts, ct::In<int32_t, Dyn1> values) {
  auto i = ct::block_id<0>();
  auto k = ct::iota<int32_t, 16>() + i * 16;
  auto v = values.load(ct::tile<16>, {i}, ct::pad::zero);
  counts.atomic_add(ct::at(v), ct::full<int32_t, 16>(1), k < values.extent<0>(),
                    {.order = ct::memory_order::relaxed});
}

// total[c] += Σ_r x[r, c] over the block's 16 x 16 tile: one tile-wide atomic reduction per block.
inline void column_sums(ct::Atomic<float, Dyn1> total, ct::In<float, Dyn2> x) {
  auto i = ct::block_id<0>(), j = ct::block_id<1>();
  auto sums = ct::sum(x.load(ct::tile<16, 16>, {i, j}, ct::pad::zero), ct::axis<0>);  // (16)
  total.atomic_add_tile({j}, sums);
}

// Every lane tries to claim slot[s] (free = -1) for its own id with a compare-and-swap; won[k] is 1 for
// the lanes whose swap happened.
inline void claim_slots(ct::Out<int32_t, ct::Shape<16>> won, ct::Atomic<int32_t, Dyn1> slots,
                        ct::In<int32_t, Dyn1> wanted) {
  auto [i] = won.tile_index();
  auto id = ct::iota<int32_t, 16>() + i * 16;
  auto s = ct::where(id < wanted.extent<0>(), wanted.load(ct::tile<16>, {i}, ct::pad::zero),
                     ct::full<int32_t, 16>(-1));
  auto old = slots.atomic_cas(ct::at(s), ct::full<int32_t, 16>(-1), id,
                              {.order = ct::memory_order::acq_rel, .scope = ct::memory_scope::device});
  won.store(ct::where(old == -1, ct::full<int32_t, 16>(1), ct::full<int32_t, 16>(0)));
}

// best[b] = max(best[b], v) and seen[b] |= 1 << (k % 8) for each value v of bucket b = k % 5, in a runtime
// loop over the block's chunks (the Atomic's tokens are carried through it).
inline void bucket_max(ct::Atomic<int64_t, Dyn1> best, ct::Atomic<int64_t, Dyn1> seen,
                       ct::In<int64_t, Dyn1> values, ct::Int chunks) {
  ct::loop(0, chunks, std::tuple<>{}, [&](ct::Int c, std::tuple<> none) {
    auto chunk = ct::block_id<0>() * chunks + c;
    auto k = ct::iota<int32_t, 16>() + chunk * 16;
    auto in_range = k < values.extent<0>();
    auto v = values.load(ct::tile<16>, {chunk}, ct::pad::zero);
    best.atomic_max(ct::at(k % 5), v, in_range);
    seen.atomic_or(ct::at(k % 5), ct::cast<int64_t>(ct::full<int32_t, 16>(1) << (k % 8)), in_range,
                   {.order = ct::memory_order::release, .scope = ct::memory_scope::block});
    return none;
  });
}

// Exchanges: out[k] = the old value of cells[k], which becomes x[k].
inline void exchange_cells(ct::Out<float, ct::Shape<16>> out, ct::Atomic<float, Dyn1> cells,
                           ct::In<float, Dyn1> x) {
  auto [i] = out.tile_index();
  auto k = ct::iota<int32_t, 16>() + i * 16;
  out.store(cells.atomic_xchg(ct::at(k), x.load(ct::tile<16>, {i}, ct::pad::zero),
                              {.order = ct::memory_order::acquire}));
}

// Overlapping row windows: tile (i, j) of y is rows [8i, 8i + 16) of x — a strided view with steps (8, 16).
inline void overlapping_rows(ct::Out<float, ct::Shape<16, 16>> y, ct::In<float, Dyn2> x) {
  auto [i, j] = y.tile_index();
  y.store(x.load(ct::tile<16, 16>, ct::steps<8, 16>, {i, j}, ct::pad::zero));
}

// y = x[:, lo:hi] (bounds clamped into x), zero past the slice's end.
inline void column_slice(ct::Out<float, ct::Shape<1, 16>> y, ct::In<float, Dyn2> x, ct::Int lo, ct::Int hi) {
  auto [i, j] = y.tile_index();
  auto s = x.slice<1>(lo, hi);
  y.store(s.load(ct::tile<1, 16>, {i, j}, ct::pad::zero));
}

// A gather from a row slice: y[k] = x[lo + idx[k]], reading 0 outside the slice.
inline void gather_from_slice(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x,
                              ct::In<int32_t, Dyn1> idx, ct::Int lo, ct::Int hi) {
  auto [i] = y.tile_index();
  y.store(x.slice<0>(lo, hi).gather(idx.load(ct::tile<16>, {i}, ct::pad::zero)));
}

// y[r, c] = x[ids[r], c] through a gather-scatter view (row ids outside x read zero).
inline void gathered_rows(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, Dyn2> x,
                          ct::In<int32_t, Dyn1> ids) {
  auto [i, j] = y.tile_index();
  y.store(
      x.load_gathered<0>(ct::tile<8, 16>, ids.load(ct::tile<8>, {i}, ct::pad::zero), {0, j}, ct::pad::zero));
}

inline std::vector<TracedKernel> all() {
  return {
      {"load_transposed",
       [] {
         return trace_with(&load_transposed, {contiguous(2), contiguous(2)});
       }},
      {"store_transposed",
       [] {
         return trace_with(&store_transposed, {contiguous(2), contiguous(2)});
       }},
      {"gather_rows",
       [] {
         return trace_with(&gather_rows, {contiguous(2), contiguous(2), contiguous(1)});
       }},
      {"gather_masked",
       [] {
         return trace_with(&gather_masked, {contiguous(1), contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"scatter_reversed",
       [] {
         return trace_with(&scatter_reversed, {contiguous(1), contiguous(1)});
       }},
      {"scatter_shifted",
       [] {
         return trace_with(&scatter_shifted, {contiguous(1), contiguous(1)});
       }},
      {"scatter_permuted",
       [] {
         return trace_with(&scatter_permuted, {contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"scatter_permuted_persistent",
       [] {
         return trace_with(&scatter_permuted_persistent, {contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"store_mirrored",
       [] {
         return trace_with(&store_mirrored, {contiguous(1), contiguous(1)});
       }},
      {"swap_halves",
       [] {
         return trace_with(&swap_halves, {contiguous(2)});
       }},
      {"histogram",
       [] {
         return trace_with(&histogram, {contiguous(1), contiguous(1)});
       }},
      {"column_sums",
       [] {
         return trace_with(&column_sums, {contiguous(1), contiguous(2)});
       }},
      {"claim_slots",
       [] {
         return trace_with(&claim_slots, {contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"bucket_max",
       [] {
         return trace_with(&bucket_max, {contiguous(1), contiguous(1), contiguous(1), {}});
       }},
      {"exchange_cells",
       [] {
         return trace_with(&exchange_cells, {contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"overlapping_rows",
       [] {
         return trace_with(&overlapping_rows, {contiguous(2), contiguous(2)});
       }},
      {"column_slice",
       [] {
         return trace_with(&column_slice, {contiguous(2), contiguous(2), {}, {}});
       }},
      {"gather_from_slice",
       [] {
         return trace_with(&gather_from_slice, {contiguous(1), contiguous(1), contiguous(1), {}, {}});
       }},
      {"gathered_rows",
       [] {
         return trace_with(&gathered_rows, {contiguous(2), contiguous(2), contiguous(1)});
       }},
  };
}

}  // namespace cutile::test_support::memory_kernels
