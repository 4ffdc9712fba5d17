// expect-error: StoreOrdering(cutile::Acquire)
// A store publishes, it does not observe: acquire is an ordering of loads only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16>> y, ct::Tile<float, ct::Shape<16>> v) {
  y.store(v, ct::acquire(ct::memory_scope::device));
}
