// expect-error: too few arguments to function
// Relaxed, acquire and release orderings always name their scope (block, device or system).
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16>> y, ct::Tile<float, ct::Shape<16>> v) {
  y.store(v, ct::relaxed());
}
