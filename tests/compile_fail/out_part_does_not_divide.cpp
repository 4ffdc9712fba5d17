// expect-error: P = {2, 32}]’ evaluated to ‘false’
// A part of an output's tile is a tile of shape P that divides the block's tile: a (2, 32) part of a
// (2, 16) tile does not exist.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<2, 16>> y) { auto t = y.load(ct::tile<2, 32>, {0, 0}); (void)t; }
