#include "tune.hpp"

#include <iostream>

#include "cutile/error.hpp"
#include "cutile/host/device.hpp"
#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::tools {
namespace {

void print_candidates(const std::vector<op::Candidate>& candidates) {
  for (const op::Candidate& c : candidates) {
    std::cout << "  " << c.choice.text() << ": ";
    if (!c.refused.empty())
      std::cout << "refused: " << c.refused.substr(0, c.refused.find('\n')) << "\n";
    else if (c.us)
      std::cout << *c.us << " us\n";
    else
      std::cout << "compiles\n";
  }
}

}  // namespace

int tune(const op::OpSpec& spec, const std::vector<std::string>& configs, const TuneOptions& options) {
  if (spec.tuning.empty()) throw UserError(std::string(spec.name) + " has no tuning space (OpSpec::tuning)");
  std::vector<std::string> expanded;
  for (const std::string& c : configs)
    for (std::string& one : op::expand(c)) expanded.push_back(std::move(one));
  int status = 0;
  if (options.compile_only) {
    for (const std::string& config : expanded) {
      std::cout << spec.name << " at " << config << " for " << options.gpu << ":\n";
      print_candidates(op::prepare(spec, config, options.gpu, options.sm_count, options.jobs));
    }
    return status;
  }
  const Device device(0);
  for (const std::string& config : expanded) {
    try {
      const op::DeviceTuning done =
          op::tune_on_device(spec, config, device, options.out, options.jobs, options.runs);
      if (done.skipped) {
        std::cout << spec.name << " at " << config << ": recorded already in " << options.out.string()
                  << "\n";
        continue;
      }
      std::cout << spec.name << " at " << config << ":\n";
      print_candidates(done.tuned.candidates);
      std::cout << "  best: " << done.tuned.record.choice.text() << ", " << done.tuned.record.us
                << " us against " << done.tuned.record.default_us << " us\n";
    } catch (const Error& e) {
      std::cerr << spec.name << " at " << config << ": " << e.what() << "\n";
      status = 1;
    }
  }
  return status;
}

void tuning_report(const op::OpSpec* only, const std::string& gpu, int sm_count) {
  const op::Target target = op::Target::compile_for(gpu, sm_count);
  for (const op::OpSpec* spec : op::registered_ops()) {
    if ((only && spec != only) || spec->tuning.empty()) continue;
    std::cout << spec->name << ": tunables";
    for (const op::Tunable& t : spec->tuning) {
      std::cout << " " << t.name << " {";
      for (size_t i = 0; i < t.candidates.size(); ++i) std::cout << (i ? "," : "") << t.candidates[i];
      std::cout << "}";
    }
    std::cout << "\n";
    for (const op::RecordStatus& s : op::tuning_status(*spec, target))
      std::cout << "  " << s.record->bucket << " -> " << s.record->choice.text() << ": "
                << (s.ignored_because.empty() ? "holds" : "ignored: " + s.ignored_because) << "\n";
  }
}

}  // namespace cutile::tools
