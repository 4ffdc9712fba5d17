// Runs one tile block: the function body's ops in program order (which respects every token order),
// control flow with loop-carried values, reduce/scan bodies, prints and asserts.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interp/memory.hpp"
#include "interp/plan.hpp"
#include "interp/value.hpp"

namespace cutile::interp {

struct BlockContext {
  const Memory* memory = nullptr;
  const std::map<std::string, uint64_t, std::less<>>* globals = nullptr;  ///< global name -> address
  std::array<int64_t, 3> block_id{};
  std::array<int64_t, 3> grid{};
  std::string printed;  ///< what the block's print ops wrote
};

/// Runs the entry body of `plan` with `parameters` (one value per entry parameter). Faults throw
/// cutile::UserError naming the op, its location and the block.
void run_block(const Plan& plan, const std::vector<RtValue>& parameters, BlockContext& context);

}  // namespace cutile::interp
