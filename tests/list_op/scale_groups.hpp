// scale_groups: a test-only op whose arguments are lists, ys[g] = factor · xs[g] for every g, to run lists
// through the whole op layer: description, checks, launcher, C ABI and Python. The test binaries and a
// C library of their own (libcutile_cpp_list_test.so) register it; the kernel library does not.
//
//   formula   ys[g][m, n] = factor · xs[g][m, n], in f32, stored as E
//   E         f32, f16 or bf16
//   TILE_N    the columns of a tile; every element has N_g <= TILE_N
//   runtime   lists of equal length: xs[g] and ys[g] (M_g, N_g), any M_g and N_g per element
//   grid      1-D, persistent: the rows of every element dealt to the blocks round-robin (for_each_tile
//             over an OutTilesList)
#pragma once

#include <cstdint>
#include <span>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::test_support {

template <Element E, int64_t TILE_N>
void scale_groups(OutTilesList<E, Shape<1, TILE_N>> ys, InList<E, Shape<dyn, dyn>> xs,
                  Tile<float, Shape<>> factor) {
  for_each_tile(ys, linear, [&](const Int& g) {
    const auto x = xs.member(g);
    return [&ys, x, factor](const ListTileIndex<E, Shape<1, TILE_N>>& t) {
      const auto& [i, j] = t.coords();
      const auto v = cast<float>(x.load(tile<1, TILE_N>, {i, j}, pad::zero));  // (1, TILE_N)
      ys.store(t, cast<E>(v * factor));
    };
  });
}

constexpr int64_t kScaleGroupsTile = 64;

void launch_scale_groups(op::Target& target, std::span<const AnyTensor* const> ys,
                         std::span<const AnyTensor* const> xs, double factor);

extern const op::OpSpec scale_groups_op;

}  // namespace cutile::test_support
