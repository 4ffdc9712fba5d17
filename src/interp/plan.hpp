// A function prepared for interpretation: every SSA value numbered with a slot of the block's frame, every
// op checked for support once, reduce/scan bodies classified for their evaluation strategy.
#pragma once

#include <vector>

#include "cutile/ir/module.hpp"

namespace cutile::interp {

struct Step;

struct BlockPlan {
  bool present = false;        ///< false for an absent else region
  std::vector<int> arguments;  ///< slots of the block arguments
  std::vector<Step> steps;
};

struct Step {
  const ir::Operation* op = nullptr;
  std::vector<std::vector<int>> groups;  ///< operand slots by operand group
  std::vector<int> results;
  std::vector<BlockPlan> regions;
  /// reduce/scan: the body's single combining op when the body is `yield(op(arg0, arg1))` with default
  /// attributes (folded directly), and whether every body op is elementwise (the body runs once per
  /// slice on whole slices instead of once per element).
  const ir::Operation* combine = nullptr;
  bool slice_body = false;
};

struct Plan {
  BlockPlan body;
  int num_slots = 0;
};

/// Throws cutile::UserError "the CPU interpreter does not support <op> (at <location>)" for the first
/// op or element type it cannot evaluate.
Plan make_plan(const ir::Function& function);

}  // namespace cutile::interp
