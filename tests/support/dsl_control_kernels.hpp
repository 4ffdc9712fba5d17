// Small kernels using cond / when / print / assert_, traced with fixed facts; shared by the ir and aot tiers.
#pragma once

#include <tuple>

#include "cutile/cutile.hpp"
#include "support/dsl_kernels.hpp"

namespace cutile::test_support::control_kernels {

namespace ct = cutile;
using Vec16 = ct::Shape<16>;
using Dyn = ct::Shape<ct::dyn>;

// y = max(x, lo) for tiles below a limit loaded from memory, else zeros.
inline void clamp_below_limit(ct::Out<float, Vec16> y, ct::In<float, Dyn> x, ct::In<int32_t, Dyn> limit,
                              ct::Float lo) {
  auto [i] = y.tile_index();
  ct::Int n = ct::reshape<ct::Shape<>>(limit.load(ct::tile<1>, {0}));
  auto v = x.load(ct::tile<16>, {i});
  y.store(ct::cond(
      i < n, [&] { return ct::maximum(v, lo); }, [] { return ct::zeros<float, 16>(); }));
}

// Two results from one branch: (a, b) or (b, a) depending on a runtime flag.
inline void ordered_pair(ct::Out<float, Vec16> first, ct::Out<float, Vec16> second, ct::In<float, Dyn> a,
                         ct::In<float, Dyn> b, ct::Int flip) {
  auto [i] = first.tile_index();
  auto u = a.load(ct::tile<16>, {i});
  auto v = b.load(ct::tile<16>, {i});
  auto [p, q] = ct::cond(
      flip != 0,
      [&] {
        return std::tuple{v, u};
      },
      [&] {
        return std::tuple{u, v};
      });
  first.store(p);
  second.store(q);
}

// Checks: a scalar assert up front, a tile assert only in blocks below n.
inline void checked_copy(ct::Out<float, Vec16> y, ct::In<float, Dyn> x, ct::Int n) {
  ct::assert_(n > 0, "n must be positive");
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  ct::when(i < n, [&] { ct::assert_(v >= 0.0f, "x must be non-negative"); });
  y.store(v);
}

// Prints a scalar and a whole tile.
inline void print_values(ct::Out<float, Vec16> y, ct::In<float, Dyn> x, ct::Int n) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  ct::print("block %d of n=%d (100%%): %f\n", i, n, v);
  y.store(v);
}

// A store in a branch: only blocks below n write their tile (the store's token is a branch result).
inline void store_below(ct::Out<float, Vec16> y, ct::In<float, Dyn> x, ct::Int n) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  ct::when(i < n, [&] { y.store(v); });
}

// In-place accumulation: each iteration loads the output and stores it back (both tokens are carried).
inline void accumulate_in_place(ct::Out<float, Vec16> y, ct::In<float, Dyn> x, ct::Int times) {
  auto [i] = y.tile_index();
  auto v = x.load(ct::tile<16>, {i});
  y.store(ct::zeros<float, 16>());
  ct::loop(0, times, v, [&](ct::Int, ct::Tile<float, Vec16> step) {
    y.store(y.load() + step);
    return step;
  });
}

// Loops without state: y's (1, 64) row tile written as y = 2x in chunks of 16 through a scatter confined
// to it, the even chunks by a stepped loop, the odd ones by a plain loop over their count; the scatters'
// memory tokens are all that the loops carry.
inline void chunks_without_state(ct::Out<float, ct::Shape<1, 64>> y,
                                 ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto [row, unused] = y.tile_index();
  const auto lanes = ct::iota<int32_t, 16>();  // (16)
  auto double_chunk = [&](const ct::Int& c) {
    auto cols = lanes + c * 16;  // (16)
    y.scatter(ct::at(ct::scalar<int32_t>(0), cols), x.gather(ct::at(row, cols)) * 2.0f);
  };
  ct::loop(0, 4, 2, [&](ct::Int c) { double_chunk(c); });
  ct::loop(0, 2, [&](ct::Int c) { double_chunk(c * 2 + 1); });
}

// chunks_without_state spelled with an empty carried state, which must trace to the same IR.
inline void chunks_with_empty_state(ct::Out<float, ct::Shape<1, 64>> y,
                                    ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto [row, unused] = y.tile_index();
  const auto lanes = ct::iota<int32_t, 16>();  // (16)
  auto double_chunk = [&](const ct::Int& c) {
    auto cols = lanes + c * 16;  // (16)
    y.scatter(ct::at(ct::scalar<int32_t>(0), cols), x.gather(ct::at(row, cols)) * 2.0f);
  };
  ct::loop(0, 4, 2, std::tuple<>{}, [&](ct::Int c, std::tuple<> none) {
    double_chunk(c);
    return none;
  });
  ct::loop(0, 2, std::tuple<>{}, [&](ct::Int c, std::tuple<> none) {
    double_chunk(c * 2 + 1);
    return none;
  });
}

// Two outputs walked in step with a carried count: y = 2x tile by tile, s the row sums beside each row
// tile, and per block the number of tiles it was handed.
inline void rows_in_step(ct::OutTiles<float, ct::Shape<4, 8>> y, ct::OutTiles<float, ct::Shape<4>> s,
                         ct::Out<int32_t, ct::Shape<1>> visited,
                         ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) {
  auto count = ct::for_each_tile(
      std::tie(y, s), ct::linear, ct::scalar<int32_t>(0),
      [&](ct::TileIndex<float, ct::Shape<4, 8>> ty, ct::TileIndex<float, ct::Shape<4>> ts, ct::Int n) {
        const auto& [i, j] = ty.coords();
        auto v = x.load(ct::tile<4, 8>, {i, j}, ct::pad::zero);  // (4, 8)
        y.store(ty, v * 2.0f);
        s.store(ts, ct::sum(v, ct::axis<1>));
        return n + 1;
      });
  visited.store(ct::reshape<ct::Shape<1>>(count));
}

// for_each_tile's loop-parallel stores: y's only access in the body is one TileIndex store, so it waits for
// y's accesses before the loop (none: no token) and joins the carried chain; z is read and written in place,
// so its store waits for its load and the chain orders the iterations as usual.
inline void tiles_stored_and_updated(ct::OutTiles<float, ct::Shape<16>> y,
                                     ct::OutTiles<float, ct::Shape<16>> z,
                                     ct::In<float, ct::Shape<ct::dyn>> x) {
  ct::for_each_tile(std::tie(y, z), ct::linear,
                    [&](ct::TileIndex<float, ct::Shape<16>> ty, ct::TileIndex<float, ct::Shape<16>> tz) {
                      const auto& [i] = ty.coords();
                      auto v = x.load(ct::tile<16>, {i}, ct::pad::zero);  // (16)
                      y.store(ty, v);
                      z.store(tz, z.load(tz) + v);
                    });
}

inline std::vector<TracedKernel> all() {
  return {
      {"clamp_below_limit",
       [] {
         return trace_with(&clamp_below_limit, {contiguous(1), contiguous(1), contiguous(1), {}});
       }},
      {"ordered_pair",
       [] {
         return trace_with(&ordered_pair, {contiguous(1), contiguous(1), contiguous(1), contiguous(1), {}});
       }},
      {"checked_copy",
       [] {
         return trace_with(&checked_copy, {contiguous(1), contiguous(1), {}});
       }},
      {"print_values",
       [] {
         return trace_with(&print_values, {contiguous(1), contiguous(1), {}});
       }},
      {"store_below",
       [] {
         return trace_with(&store_below, {contiguous(1), contiguous(1), {}});
       }},
      {"accumulate_in_place",
       [] {
         return trace_with(&accumulate_in_place, {contiguous(1), contiguous(1), {}});
       }},
      {"chunks_without_state",
       [] {
         return trace_with(&chunks_without_state, {contiguous(2), contiguous(2)});
       }},
      {"rows_in_step",
       [] {
         return trace_with(&rows_in_step, {contiguous(2), contiguous(1), contiguous(1), contiguous(2)});
       }},
      {"tiles_stored_and_updated",
       [] {
         return trace_with(&tiles_stored_and_updated, {contiguous(1), contiguous(1), contiguous(1)});
       }},
  };
}

}  // namespace cutile::test_support::control_kernels
