// expect-error: AtomicIntegerElement
// Atomic min and max take integer elements only (Tile IR has no float atomic max).
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Atomic<float, ct::Shape<ct::dyn>> a, ct::Tile<float, ct::Shape<16>> v) {
  a.atomic_max(ct::at(ct::iota<int32_t, 16>()), v);
}
