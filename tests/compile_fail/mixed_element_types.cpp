// expect-error: no match for
// f32 + bf16: element types never mix implicitly; cast one side.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<float, ct::Shape<16>> a, ct::Tile<ct::bf16, ct::Shape<16>> b) { auto c = a + b; }
