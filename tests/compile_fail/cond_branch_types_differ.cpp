// expect-error: no matching function for call
// Both branches of cond must return the same type.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Int n) {
  auto t = ct::cond(n > 0, [] { return ct::zeros<float, 16>(); }, [] { return ct::zeros<int32_t, 16>(); });
}
