// expect-error: TileShape<typename cutile::detail::broadcast_all
// Scatter coordinates and values must broadcast to one shape.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Out<float, ct::Shape<16>> y) { y.scatter(ct::at(ct::iota<int32_t, 16>()), ct::zeros<float, 8>()); }
