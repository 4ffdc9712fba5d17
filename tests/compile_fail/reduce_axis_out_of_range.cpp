// expect-error: Axis < S::rank
// A (16, 16) tile has axes 0 and 1.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<float, ct::Shape<16, 16>> a) { auto s = ct::sum(a, ct::axis<2>); }
