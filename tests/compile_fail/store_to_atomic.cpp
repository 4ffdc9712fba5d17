// expect-error: has no member named
// An Atomic tensor is written only atomically: it has no plain store.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Atomic<float, ct::Shape<ct::dyn>> a, ct::Tile<float, ct::Shape<16>> v) { a.store(v); }
