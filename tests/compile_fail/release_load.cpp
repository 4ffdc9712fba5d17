// expect-error: LoadOrdering(cutile::Release)
// A load observes, it does not publish: release is an ordering of stores only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x) {
  x.load(ct::tile<16>, {0}, ct::release(ct::memory_scope::device));
}
