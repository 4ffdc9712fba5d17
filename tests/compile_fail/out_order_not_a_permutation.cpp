// expect-error: PermutationOf
// A permuted output partition needs a permutation of the tile's dims.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16, 16>, ct::Order<1, 2>> y) { y.store(ct::zeros<float, 16, 16>()); }
