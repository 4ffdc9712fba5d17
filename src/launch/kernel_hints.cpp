// KernelHints -> the entry's optimization_hints, checked hint by hint so that a bad value is reported
// against the KernelHints field that holds it, before anything reaches tileiras.
#include <algorithm>
#include <array>
#include <string_view>

#include "cutile/error.hpp"
#include "cutile/host/launch.hpp"

namespace cutile::detail {
namespace {

// The architecture keys Tile IR's optimization_hints accept (bytecode 13.3).
constexpr std::array<std::string_view, 11> kTargets = {
    "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};

std::string known_targets() {
  std::string out;
  for (std::string_view t : kTargets) out += (out.empty() ? "" : ", ") + std::string(t);
  return out;
}

// `prefix` names where the hints came from in messages: "KernelHints::" or
// "KernelHints::for_target(\"sm_90\").".
ir::Attribute dictionary_of(const TargetHints& h, const std::string& prefix, bool ampere_or_ada) {
  std::vector<std::pair<std::string, ir::Attribute>> entries;
  auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (h.num_ctas) {
    if (!pow2(*h.num_ctas) || *h.num_ctas > 16)
      throw UserError(prefix + "num_ctas must be a power of two ≤ 16, got " + std::to_string(*h.num_ctas));
    if (ampere_or_ada && *h.num_ctas != 1)
      throw UserError(prefix + "num_ctas must be 1 on sm_8x (no thread block clusters), got " +
                      std::to_string(*h.num_ctas));
    entries.emplace_back("num_cta_in_cga", ir::Attribute::i32(*h.num_ctas));
  }
  if (h.occupancy) {
    if (*h.occupancy < 1 || *h.occupancy > 32)
      throw UserError(prefix + "occupancy must be in 1..32, got " + std::to_string(*h.occupancy));
    entries.emplace_back("occupancy", ir::Attribute::i32(*h.occupancy));
  }
  if (h.num_worker_warps) {
    if (*h.num_worker_warps != 4 && *h.num_worker_warps != 8)
      throw UserError(prefix + "num_worker_warps must be 4 or 8, got " + std::to_string(*h.num_worker_warps));
    entries.emplace_back("num_worker_warps_per_cta", ir::Attribute::i32(*h.num_worker_warps));
  }
  return ir::Attribute::dictionary(std::move(entries));
}

}  // namespace

// A target's entry holds only the values given for it: tileiras takes each hint from the target's entry
// when it has it and from "default" otherwise, as cuTile Python's ByTarget lowers. So a default of
// num_ctas = 2 does not leak into an sm_80 entry that sets only the occupancy.
std::optional<ir::Attribute> entry_hints(const KernelHints& hints) {
  const TargetHints defaults{hints.num_ctas, hints.occupancy, hints.num_worker_warps};
  std::vector<std::pair<std::string, ir::Attribute>> per_target;
  per_target.emplace_back("default", dictionary_of(defaults, "KernelHints::", false));
  for (const auto& [gpu, h] : hints.targets) {
    const std::string prefix = "KernelHints::for_target(\"" + gpu + "\")";
    if (std::find(kTargets.begin(), kTargets.end(), gpu) == kTargets.end())
      throw UserError(prefix + ": unknown GPU target (expected one of " + known_targets() + ")");
    for (const auto& [earlier, unused] : per_target)
      if (earlier == gpu) throw UserError(prefix + ": the target is given more than once");
    per_target.emplace_back(gpu, dictionary_of(h, prefix + ".", gpu.starts_with("sm_8")));
  }
  const bool any = std::any_of(per_target.begin(), per_target.end(),
                               [](const auto& entry) { return !entry.second.entries.empty(); });
  if (!any) return std::nullopt;
  return ir::Attribute::optimization_hints(std::move(per_target));
}

}  // namespace cutile::detail
