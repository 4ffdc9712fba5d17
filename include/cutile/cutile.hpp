// The tile DSL in one include.
#pragma once

#include "cutile/arith.hpp"
#include "cutile/cast.hpp"
#include "cutile/cond.hpp"
#include "cutile/control.hpp"
#include "cutile/debug.hpp"
#include "cutile/element.hpp"
#include "cutile/factory.hpp"
#include "cutile/grid.hpp"
#include "cutile/kernel_params.hpp"
#include "cutile/math.hpp"
#include "cutile/mma.hpp"
#include "cutile/reduce.hpp"
#include "cutile/shape.hpp"
#include "cutile/shape_ops.hpp"
#include "cutile/schedule.hpp"
#include "cutile/tile.hpp"
