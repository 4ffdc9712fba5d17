// expect-error: fp8_operand
// Fast accumulation is a mode of fp8 operands only.
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::Tile<ct::f16, ct::Shape<16, 16>> a, ct::Tile<float, ct::Shape<16, 16>> acc) { auto c = ct::mma_fast_acc(a, a, acc); }
