// expect-error: SameBitWidth
// A bitcast reinterprets bits: f16 (16 bits) cannot become i32 (32 bits); that is a conversion (cast).
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<ct::f16, ct::Shape<16>> x) {
  ct::bitcast<int32_t>(x);
}
