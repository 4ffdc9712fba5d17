// `cutile-ops tune` and `cutile-ops tuning`: the autotuner (cutile/op/autotune.hpp) run over an op's
// configurations, its records appended to tuning/<op>.jsonl, and which committed records hold here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cutile/op/spec.hpp"

namespace cutile::tools {

struct TuneOptions {
  std::filesystem::path
      out;        ///< the records file; configurations it already holds for this GPU and release are skipped
  int jobs = 2;   ///< tileiras processes at once
  int runs = 50;  ///< timed runs per point (the median is kept)
  bool compile_only = false;  ///< trace and compile the space for `gpu` and report it; no GPU needed
  std::string gpu = "sm_90";  ///< with compile_only; otherwise device 0's
  int sm_count = 132;         ///< with compile_only; otherwise device 0's
};

/// Tunes `spec` at every configuration (sets expanded); prints a line per point and per record. Returns
/// 0, or 1 when a configuration cannot be tuned.
int tune(const op::OpSpec& spec, const std::vector<std::string>& configs, const TuneOptions& options);

/// Prints every registered record of `only` (all ops when null) and whether it holds for `gpu`, or why not.
void tuning_report(const op::OpSpec* only, const std::string& gpu, int sm_count);

}  // namespace cutile::tools
