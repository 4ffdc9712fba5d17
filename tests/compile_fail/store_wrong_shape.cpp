// expect-error: no known conversion for argument 1 from ‘cutile::Tile<float, cutile::Shape<64> >’ to ‘const cutile::Tile<float, cutile::Shape<128> >&’
// An output's tile shape is fixed by the kernel signature: a (64) tile cannot go to a (128) output.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<128>> y, ct::Tile<float, ct::Shape<64>> t) { y.store(t); }
