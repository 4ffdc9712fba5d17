// expect-error: use of deleted function
// A C++ `if` on a symbolic value: tiles have no bool.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Int i) {
  if (i > 0) {
  }
}
