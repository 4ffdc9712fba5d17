// expect-error: sizeof ... (I ...) == cutile::In<E, S>::rank
// A gather from a rank-2 tensor needs one index tile per dimension.
#include "cutile/cutile.hpp"
namespace ct = cutile;
ct::Tile<float, ct::Shape<16>> read(ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x) {
  return x.gather(ct::at(ct::iota<int32_t, 16>()));
}
