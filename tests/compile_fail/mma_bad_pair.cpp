// expect-error: mma_pair
// bf16 operands accumulate in f32 only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<ct::bf16, ct::Shape<16, 16>> a, ct::Tile<ct::bf16, ct::Shape<16, 16>> acc) { auto c = ct::mma(a, a, acc); }
