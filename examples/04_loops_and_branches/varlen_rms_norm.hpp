// Rung 04: RMS normalisation of rows of different lengths, a chunk at a time.
//   formula  y[r, c] = x[r, c] / sqrt(mean(x[r, :n]²) + eps) for c < n, and 0 for n ≤ c; n = lengths[r]
//            (0 ≤ n ≤ the columns of x); a row of length 0 is all zeros
//   ROW      y's row tile, ≥ the columns (a power of two); CHUNK: columns per step, dividing ROW
//   grid     (rows, 1, 1): one row per block
// Runtime control flow is a library call, never a C++ `if` or `for` on a tile (which does not compile):
// loop() with carried state for the sum of squares, whose trip count is the row's length read from
// memory; cond() for the branch on it; loop() without state for the pass that writes. The writes of a
// runtime loop cannot be whole-tile stores (a tile's place is fixed at trace time), so each chunk goes
// through a scatter, which only reaches this block's own tile of y.
#pragma once

#include "cutile/cutile.hpp"

namespace examples {

namespace ct = cutile;

template <ct::Element E, int64_t ROW, int64_t CHUNK>
void varlen_rms_norm(ct::Out<E, ct::Shape<1, ROW>> y, ct::In<E, ct::Shape<ct::dyn, ct::dyn>> x,
                     ct::In<int32_t, ct::Shape<ct::dyn>> lengths, ct::Float eps) {
  // A static_assert rather than a requires-clause: a kernel that fails a constraint cannot be named at
  // its launch, and the compiler would only say "unresolved overloaded function type".
  static_assert(ROW % CHUNK == 0, "CHUNK divides ROW");
  using Chunk = ct::Tile<float, ct::Shape<CHUNK>>;
  auto [row, unused] = y.tile_index();
  const ct::Int n = ct::reshape<ct::Shape<>>(lengths.load(ct::tile<1>, {row}));  // a runtime scalar
  const auto lanes = ct::iota<int32_t, CHUNK>();                                 // (CHUNK) 0, 1, ...
  // Chunk c of the row: its first n columns, zeros past them (a masked gather reads the padding there).
  auto chunk = [&](const ct::Int& c) {
    auto cols = lanes + c * CHUNK;                                  // (CHUNK)
    return ct::cast<float>(x.gather(ct::at(row, cols), cols < n));  // (CHUNK)
  };

  const Chunk squares = ct::loop(0, ct::cdiv(n, CHUNK), ct::zeros<float, CHUNK>(), [&](ct::Int c, Chunk sum) {
    const Chunk v = chunk(c);
    return sum + v * v;  // (CHUNK)
  });
  // Both sides of a cond() return the same type; the taken one is the result.
  const ct::Float scale = ct::cond(
      n > 0, [&] { return ct::rsqrt(ct::sum(squares, ct::axis<0>) / ct::cast<float>(n) + eps); },
      [] { return ct::scalar<float>(0.0); });
  constexpr int CHUNKS = ROW / CHUNK;  // of y's row tile, the columns past the tensor's included
  ct::loop(0, CHUNKS, [&](ct::Int c) {
    auto cols = lanes + c * CHUNK;                                                   // (CHUNK)
    y.scatter(ct::at(ct::scalar<int32_t>(0), cols), ct::cast<E>(chunk(c) * scale));  // row 0 of y's tile
  });
}

}  // namespace examples
