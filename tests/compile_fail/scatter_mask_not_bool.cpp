// expect-error: no matching function for call to
// A scatter's mask is a bool tile (a comparison's result), not an integer tile.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16>> y, ct::Tile<float, ct::Shape<16>> v,
            ct::Tile<int32_t, ct::Shape<16>> keep) {
  y.scatter(ct::at(ct::iota<int32_t, 16>()), v, keep);
}
