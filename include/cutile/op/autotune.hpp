// The autotuner: for an op at a configuration, every point of its tuning space (OpSpec::tuning) is run
// through the launcher on a trace target, which drops the points the launcher or the hint checks refuse,
// compiled with tileiras on several threads, and measured by a caller's function (on the GPU, device time
// of the op with the choice forced; `cutile-ops tune`). The fastest becomes a TuningRecord (tuning.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/host/device.hpp"
#include "cutile/op/tuning.hpp"

namespace cutile::op {

/// The launcher's policy (an empty choice) first, then every combination of the tunables' candidates.
std::vector<Choice> search_space(const OpSpec& spec);

struct Candidate {
  Choice choice;
  std::string refused;       ///< why the point does not launch ("" when it does)
  std::optional<double> us;  ///< its measured time
};

/// The search space at `config` for `gpu` with `sm_count` SMs: each point traced, then the ones that
/// trace compiled with tileiras on `jobs` threads. A point that fails either is kept, with why.
std::vector<Candidate> prepare(const OpSpec& spec, std::string_view config, const std::string& gpu,
                               int sm_count, int jobs);

/// What a tuning run found at one configuration.
struct Tuned {
  TuningRecord record;  ///< the fastest point (the launcher's policy when nothing beats it)
  std::vector<Candidate> candidates;
};

/// Prepares the search space at `config` for `gpu`, then times every point that launches with
/// `measure(choice)` (microseconds) and records the fastest, keyed by `gpu`, the tileiras release in use
/// and the hash of the kernels it launches. A UserError when the launcher's policy itself does not launch.
Tuned autotune(const OpSpec& spec, std::string_view config, const std::string& gpu, int sm_count, int jobs,
               const std::function<double(const Choice&)>& measure);

/// A record as one line of tuning/<op>.jsonl (JSON, with the date it was made).
std::string record_line(const TuningRecord& record);

struct DeviceTuning {
  bool skipped;  ///< the records file held this configuration for this GPU and tileiras release already
  Tuned tuned;
};

/// Tunes `spec` at `config` on GPU `device`: autotune() with each point timed as the benchmarks time
/// (random float inputs, 256 MiB written before each timed call so that L2 starts empty and the host's
/// time is hidden, CUDA events, the median of `runs`), its record appended to `records` (JSON lines, the
/// file made if need be). Skipped when `records` holds the configuration for this GPU and release, so
/// that a cut-off tuning resumes. A UserError for an op without tunables, inputs that are not float, or
/// no tileiras.
DeviceTuning tune_on_device(const OpSpec& spec, std::string_view config, const Device& device,
                            const std::filesystem::path& records, int jobs, int runs);

}  // namespace cutile::op
