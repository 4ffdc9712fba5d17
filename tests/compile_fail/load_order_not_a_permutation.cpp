// expect-error: PermutationOf
// An order must name each dimension of the tensor once.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16, 16>> y, ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) {
  y.store(x.load(ct::tile<16, 16>, ct::order<0, 0>, {0, 0}));
}
