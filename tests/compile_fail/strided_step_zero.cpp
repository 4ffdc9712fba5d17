// expect-error: STEP > 0
// Strided tiles advance by a positive step.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16>> y, ct::In<float, ct::Shape<ct::dyn>> x) {
  y.store(x.load(ct::tile<16>, ct::steps<0>, {0}));
}
