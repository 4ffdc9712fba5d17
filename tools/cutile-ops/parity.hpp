// IR parity of the kernel library with cuTile Python: each parity case of an op's description traces the
// op's launcher at the case's configuration and diffs the kernel it launches against the committed
// reference bytecode of the TileGym kernel it ports (tests/data/reference/tilegym), with the CRITICAL rows
// the port keeps on purpose pinned by docs/ir-diff/<recipe>.explained. The parity test of the ir tier and
// `cutile-ops parity` run it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cutile/ir_diff/diff.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::tools {

/// Where the references and explanations are: the source tree's by default.
struct ParitySources {
  std::filesystem::path references;    ///< <reference>.tileirbc files
  std::filesystem::path explanations;  ///< <recipe>.explained files
};

struct ParityResult {
  const op::OpSpec* op = nullptr;
  const op::ParityCase* parity = nullptr;
  ir::DiffReport report;                  ///< with the explanations applied
  std::vector<ir::Explanation> stale;     ///< explanations of this reference kernel that pin no row
};

/// The recipe of a reference, "rms_norm" for "rms_norm.static_persistent".
std::string recipe_of(const op::ParityCase& parity);

/// Runs one case for sm_90 with 132 SMs (an H200: the references' configuration). Errors (a reference
/// that is missing or unreadable, a kernel the launcher does not launch) are exceptions naming the case.
ParityResult run_parity(const op::OpSpec& op, const op::ParityCase& parity, const ParitySources& sources);

}  // namespace cutile::tools
