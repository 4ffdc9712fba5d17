// expect-error: TileShape
// Tile dimensions are powers of two.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x) { auto t = x.load(ct::tile<100>, {0}); }
