// Dead-code removal after tracing: loop-carried values nothing reads, and pure ops whose results are unused.
// The tracer threads a token per output through every loop so that accesses after the loop can wait for
// it; when nothing after the loop touches that output, the carried chain orders nothing. cuTile Python's
// dead-code pass drops such chains, and so does this one, so that both front ends hand tileiras the same loop.
#pragma once

#include "cutile/ir/module.hpp"

namespace cutile::ir {

/// Removes, until none is left: each `for` carry whose result is unused and whose body argument reaches
/// nothing but pure ops feeding the same `continue` operand; then each pure, region-free op whose results
/// are all unused. Side effects, their order and every value something reads stay as they were.
void remove_dead_code(Function& function);

}  // namespace cutile::ir
