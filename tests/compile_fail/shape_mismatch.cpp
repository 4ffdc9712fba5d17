// expect-error: Broadcastable<A, B>
// Adding a (1, 128) tile to a (1, 64) tile: the shapes do not broadcast.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<float, ct::Shape<1, 128>> a, ct::Tile<float, ct::Shape<1, 64>> b) { auto c = a + b; }
