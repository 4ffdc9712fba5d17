// expect-error: has no member named
// An In parameter is read-only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x, ct::Tile<float, ct::Shape<128>> t) { x.store(t); }
