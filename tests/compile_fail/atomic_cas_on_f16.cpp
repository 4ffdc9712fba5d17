// expect-error: AtomicElement
// Compare-and-swap takes 32- and 64-bit elements only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Atomic<ct::f16, ct::Shape<ct::dyn>> a, ct::Tile<ct::f16, ct::Shape<16>> v) {
  a.atomic_cas(ct::at(ct::iota<int32_t, 16>()), v, v);
}
