// expect-error: BitcastElement
// bool has no byte-sized bit pattern in Tile IR (i1): compare or cast instead.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<bool, ct::Shape<16>> x) {
  ct::bitcast<int8_t>(x);
}
