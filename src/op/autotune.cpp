#include "cutile/op/autotune.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "cutile/error.hpp"
#include "cutile/op/configuration.hpp"

namespace cutile::op {
namespace {

// Runs the launcher at `config` on `target` with `choice` forced; "" when it launches, else why not.
std::string refusal(const OpSpec& spec, std::string_view config, Target target, const Choice& choice) {
  target.force(&choice);
  try {
    run_at(spec, config, target);
    return {};
  } catch (const std::exception& e) {  // also on a compile thread: a point that cannot launch is refused
    return e.what();
  }
}

}  // namespace

std::vector<Choice> search_space(const OpSpec& spec) {
  std::vector<Choice> points{Choice{}};
  std::vector<Choice> product{Choice{}};
  for (const Tunable& t : spec.tuning) {
    std::vector<Choice> next;
    for (const Choice& partial : product)
      for (const int64_t value : t.candidates) {
        Choice c = partial;
        c.values.emplace_back(std::string(t.name), value);
        next.push_back(std::move(c));
      }
    product = std::move(next);
  }
  if (!spec.tuning.empty()) points.insert(points.end(), product.begin(), product.end());
  return points;
}

std::vector<Candidate> prepare(const OpSpec& spec, std::string_view config, const std::string& gpu,
                               int sm_count, int jobs) {
  std::vector<Candidate> candidates;
  for (Choice& c : search_space(spec)) {
    std::string why = refusal(spec, config, Target::trace_for(gpu, sm_count), c);
    candidates.push_back({std::move(c), std::move(why), std::nullopt});
  }
  // tileiras runs as a subprocess, so threads compile in parallel; the cubin cache serves later launches.
  std::atomic<size_t> next{0};
  auto compile_some = [&] {
    for (size_t i = next++; i < candidates.size(); i = next++)
      if (candidates[i].refused.empty())
        candidates[i].refused =
            refusal(spec, config, Target::compile_for(gpu, sm_count), candidates[i].choice);
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < std::max(jobs, 1); ++j) threads.emplace_back(compile_some);
  compile_some();
  for (std::thread& t : threads) t.join();
  return candidates;
}

Tuned autotune(const OpSpec& spec, std::string_view config, const std::string& gpu, int sm_count, int jobs,
               const std::function<double(const Choice&)>& measure) {
  Tuned tuned{{}, prepare(spec, config, gpu, sm_count, jobs)};
  const Candidate& policy = tuned.candidates.front();
  if (!policy.refused.empty())
    throw UserError(std::string(spec.name) + " does not launch at '" + std::string(config) +
                    "': " + policy.refused);
  const Candidate* best = nullptr;
  for (Candidate& c : tuned.candidates) {
    if (!c.refused.empty()) continue;
    c.us = measure(c.choice);
    if (!best || *c.us < *best->us) best = &c;
  }
  tuned.record = {std::string(spec.name),
                  gpu,
                  tileiras_release(),
                  kernels_hash(spec, config, gpu, sm_count, &best->choice),
                  std::string(config),
                  best->choice,
                  *best->us,
                  *policy.us};
  return tuned;
}

}  // namespace cutile::op
