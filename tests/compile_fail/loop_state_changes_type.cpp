// expect-error: no matching function for call
// A loop body must return the carried state's type.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Int n) {
  auto acc = ct::loop(0, n, ct::zeros<float, 16>(), [](ct::Int, ct::Tile<float, ct::Shape<16>> a) { return ct::cast<int32_t>(a); });
}
