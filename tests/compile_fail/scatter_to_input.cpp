// expect-error: has no member named
// An In parameter is read-only: it has no scatter.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x, ct::Tile<float, ct::Shape<16>> t) {
  x.scatter(ct::at(ct::iota<int32_t, 16>()), t);
}
