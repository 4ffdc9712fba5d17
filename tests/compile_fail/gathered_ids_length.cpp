// expect-error: cannot convert
// The ids of a gathered tile name exactly one element per row of its sparse dimension.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<8, 16>> y, ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x,
            ct::Tile<int32_t, ct::Shape<4>> ids) {
  y.store(x.load_gathered<0>(ct::tile<8, 16>, ids, {0, 0}));
}
