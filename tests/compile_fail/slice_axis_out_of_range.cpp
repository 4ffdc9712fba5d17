// expect-error: AXIS < cutile::In<E, S>::rank
// A slice names one of the tensor's dimensions.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) { (void)x.slice<2>(0, 4); }
