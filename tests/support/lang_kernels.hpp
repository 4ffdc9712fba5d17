// Kernels of the language additions — bitcast, memory ordering of plain loads and stores, masked
// scatters — shared by the ir (golden text), aot (tileiras) and interp (numerics) tiers.
#pragma once

#include <vector>

#include "cutile/cutile.hpp"
#include "cutile/host/launch.hpp"
#include "support/dsl_kernels.hpp"

namespace cutile::test_support::lang_kernels {

namespace ct = cutile;
using Dyn1 = ct::Shape<ct::dyn>;
using Dyn2 = ct::Shape<ct::dyn, ct::dyn>;

// y = the bits of x read as To, N elements per block.
template <class To, class From, int64_t N>
void bitcast_copy(ct::Out<To, ct::Shape<N>> y, ct::In<From, Dyn1> x) {
  auto [i] = y.tile_index();
  y.store(ct::bitcast<To>(x.load(ct::tile<N>, {i}, ct::pad::zero)));  // (N)
}

// y = |x| by clearing the sign bit of x's f32 bits: an integer op on float data through two bitcasts.
inline void abs_by_sign_bit(ct::Out<float, ct::Shape<16, 32>> y, ct::In<float, Dyn2> x) {
  auto [i, j] = y.tile_index();
  auto bits = ct::bitcast<int32_t>(x.load(ct::tile<16, 32>, {i, j}, ct::pad::zero));  // (16, 32)
  y.store(ct::bitcast<float>(bits & 0x7fffffff));
}

// y = 2x, reading x with acquire and writing y with release at device scope.
inline void acquire_release_copy(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i}, ct::acquire(ct::memory_scope::device), ct::pad::zero);  // (16)
  y.store(v * 2.0f, ct::release(ct::memory_scope::device));
}

// y += x in place: y read relaxed at block scope, written relaxed at system scope, x read weak (explicitly).
inline void relaxed_accumulate(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, Dyn2> x) {
  auto [i, j] = y.tile_index();
  auto acc = y.load(ct::relaxed(ct::memory_scope::block), ct::pad::zero);  // (8, 16)
  y.store(acc + x.load(ct::tile<8, 16>, {i, j}, ct::weak, ct::pad::zero),
          ct::relaxed(ct::memory_scope::system));
}

// y[perm[k]] = x[idx[k]]: an acquire gather and a release scatter through pointer tiles (the unchecked
// scatter lets a block write anywhere in y; perm is a permutation and lanes past the end are dropped, so
// no two lanes collide).
inline void ordered_permute(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x, ct::In<int32_t, Dyn1> idx,
                            ct::In<int32_t, Dyn1> perm) {
  auto [i] = y.tile_index();
  auto k = idx.load(ct::tile<16>, {i}, ct::pad::zero);  // (16)
  auto v = x.gather(ct::at(k), {.padding = -3, .ordering = ct::acquire(ct::memory_scope::system)});
  auto lane = ct::iota<int32_t, 16>() + i * 16;  // (16)
  auto p = ct::where(lane < perm.extent<0>(),
                     perm.load(ct::tile<16>, {i}, ct::relaxed(ct::memory_scope::device), ct::pad::zero),
                     ct::full<int32_t, 16>(-1));  // lanes past the end: out of bounds, not written
  y.unchecked_scatter(ct::at(p), v, {.latency = 4, .ordering = ct::release(ct::memory_scope::block)});
}

// Block i writes tile n - 1 - i, released: the tiles of y in reverse (an escape hatch, with an ordering).
inline void release_mirrored(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x) {
  auto [i] = y.tile_index();
  y.unchecked_store({ct::num_blocks<0>() - 1 - i}, x.load(ct::tile<16>, {i}, ct::pad::zero),
                    ct::release(ct::memory_scope::device));
}

// Each block writes its tile of x reversed where keep is non-zero: y[16i + 15 - k] = x[16i + k] if
// keep[16i + k] != 0, a masked scatter confined to the tile.
inline void scatter_reversed_where(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x,
                                   ct::In<int32_t, Dyn1> keep) {
  auto [i] = y.tile_index();
  auto m = keep.load(ct::tile<16>, {i}, ct::pad::zero) != 0;  // (16)
  y.scatter(ct::at(15 - ct::iota<int32_t, 16>()), x.load(ct::tile<16>, {i}, ct::pad::zero), m);
}

// Rank 2, mask broadcast over columns: row r of the block's tile is written (shifted right by one column,
// the last column dropped by the tile bound) only where keep[row] != 0.
inline void scatter_rows_where(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, Dyn2> x,
                               ct::In<int32_t, Dyn1> keep) {
  auto [i, j] = y.tile_index();
  auto m = ct::reshape<ct::Shape<8, 1>>(keep.load(ct::tile<8>, {i}, ct::pad::zero) != 0);  // (8, 1)
  auto r = ct::reshape<ct::Shape<8, 1>>(ct::iota<int32_t, 8>());                           // (8, 1)
  auto c = ct::reshape<ct::Shape<1, 16>>(ct::iota<int32_t, 16>() + 1);                     // (1, 16)
  y.scatter(ct::at(r, c), x.load(ct::tile<8, 16>, {i, j}, ct::pad::zero), m, {.latency = 2});
}

// y[perm[k]] = x[k] where keep[k] != 0, anywhere in y (an escape hatch: perm is a permutation).
inline void scatter_permuted_where(ct::Out<float, ct::Shape<16>> y, ct::In<float, Dyn1> x,
                                   ct::In<int32_t, Dyn1> perm, ct::In<int32_t, Dyn1> keep) {
  auto [i] = y.tile_index();
  auto p = perm.load(ct::tile<16>, {i}, ct::pad::zero);  // (16); lanes past the end are masked off by keep
  auto m = keep.load(ct::tile<16>, {i}, ct::pad::zero) != 0;  // (16)
  y.unchecked_scatter(ct::at(p), x.load(ct::tile<16>, {i}, ct::pad::zero), m);
}

// Per-target entry hints as a launch sets them: defaults, an sm_90 entry and an sm_100 entry.
inline KernelHints hints_by_target() {
  KernelHints h;
  h.occupancy = 2;
  h.for_target("sm_90", {.occupancy = 1, .num_worker_warps = 8}).for_target("sm_100", {.num_ctas = 2});
  return h;
}

// Only per-target hints: the default entry is empty.
inline KernelHints target_hints_only() {
  KernelHints h;
  h.for_target("sm_90", {.num_ctas = 2});
  return h;
}

template <class... P>
std::unique_ptr<ir::Module> trace_hinted(void (*kernel)(P...), std::vector<detail::ArrayFacts> facts,
                                         const KernelHints& hints) {
  auto m = trace_with(kernel, std::move(facts));
  m->functions().front()->set_hints(detail::entry_hints(hints));
  return m;
}

inline std::vector<TracedKernel> all() {
  return {
      {"bitcast_f32_to_i32",
       [] {
         return trace_with(&bitcast_copy<int32_t, float, 16>, {contiguous(1), contiguous(1)});
       }},
      {"bitcast_i16_to_bf16",
       [] {
         return trace_with(&bitcast_copy<ct::bf16, int16_t, 32>, {contiguous(1), contiguous(1)});
       }},
      {"bitcast_f64_to_i64",
       [] {
         return trace_with(&bitcast_copy<int64_t, double, 8>, {contiguous(1), contiguous(1)});
       }},
      {"abs_by_sign_bit",
       [] {
         return trace_with(&abs_by_sign_bit, {contiguous(2), contiguous(2)});
       }},
      {"hints_by_target",
       [] {
         return trace_hinted(&abs_by_sign_bit, {contiguous(2), contiguous(2)}, hints_by_target());
       }},
      {"target_hints_only",
       [] {
         return trace_hinted(&abs_by_sign_bit, {contiguous(2), contiguous(2)}, target_hints_only());
       }},
      {"acquire_release_copy",
       [] {
         return trace_with(&acquire_release_copy, {contiguous(1), contiguous(1)});
       }},
      {"relaxed_accumulate",
       [] {
         return trace_with(&relaxed_accumulate, {contiguous(2), contiguous(2)});
       }},
      {"ordered_permute",
       [] {
         return trace_with(&ordered_permute, {contiguous(1), contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"release_mirrored",
       [] {
         return trace_with(&release_mirrored, {contiguous(1), contiguous(1)});
       }},
      {"scatter_reversed_where",
       [] {
         return trace_with(&scatter_reversed_where, {contiguous(1), contiguous(1), contiguous(1)});
       }},
      {"scatter_rows_where",
       [] {
         return trace_with(&scatter_rows_where, {contiguous(2), contiguous(2), contiguous(1)});
       }},
      {"scatter_permuted_where",
       [] {
         return trace_with(&scatter_permuted_where,
                           {contiguous(1), contiguous(1), contiguous(1), contiguous(1)});
       }},
  };
}

}  // namespace cutile::test_support::lang_kernels
