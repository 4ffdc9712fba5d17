// expect-error: a tile index has one entry per tensor dimension
// A 2-D tensor takes a 2-D tile index; one entry names the rule (not "could not convert ... to IndexArg").
#include "cutile/cutile.hpp"
namespace ct = cutile;
void kernel(ct::In<float, ct::Shape<ct::dyn, ct::dyn>> x, ct::Int i) { auto t = x.load(ct::tile<1, 128>, {i}); }
