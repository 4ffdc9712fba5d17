// expect-error: cutile::Acquire::Acquire(<brace-enclosed initializer list>)
// An ordering's scope is never implied: Acquire{} does not default to a scope.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x) {
  x.load(ct::tile<16>, {0}, ct::Acquire{});
}
