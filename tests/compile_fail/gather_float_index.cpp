// expect-error: IndexTile
// Gather coordinates are integer tiles.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn>> x, ct::Tile<float, ct::Shape<16>> where) { x.gather(ct::at(where)); }
