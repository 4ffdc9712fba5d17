#include "tune.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <tuple>

#include "cutile/error.hpp"
#include "cutile/host/device.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/runtime/event_timer.hpp"

namespace cutile::tools {
namespace {

namespace fs = std::filesystem;
using Key = std::tuple<std::string, std::string, std::string>;  // gpu, tileiras, bucket

// The keys of the records `out` holds already. It is written by record_line only, so a field is
// "name": "text" with no quote inside; a line that does not read so is an error, not a skip.
std::set<Key> recorded(const fs::path& out) {
  std::set<Key> keys;
  std::ifstream in(out);
  std::string line;
  auto field = [&](const std::string& name) {
    std::smatch m;
    const std::regex pattern("\"" + name + "\": \"([^\"]*)\"");
    if (!std::regex_search(line, m, pattern))
      throw UserError(out.string() + ": a record without \"" + name + "\": " + line);
    return m[1].str();
  };
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t") != std::string::npos)
      keys.emplace(field("gpu"), field("tileiras"), field("bucket"));
  return keys;
}

std::string today() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

std::string record_line(const op::TuningRecord& r) {
  std::string choice;
  for (const auto& [name, value] : r.choice.values)
    choice += (choice.empty() ? "" : ", ") + ("\"" + name + "\": " + std::to_string(value));
  char times[96];
  std::snprintf(times, sizeof times, "\"us\": %.3f, \"default_us\": %.3f", r.us, r.default_us);
  return "{\"op\": \"" + r.op + "\", \"gpu\": \"" + r.gpu + "\", \"tileiras\": \"" + r.tileiras +
         "\", \"kernels\": \"" + r.kernels + "\", \"bucket\": \"" + r.bucket + "\", \"choice\": {" + choice +
         "}, " + times + ", \"date\": \"" + today() + "\"}";
}

// Device time of one call of the op with a choice forced: CUDA events around the call, after a write of
// 256 MiB that empties L2 and keeps the stream busy while the host queues the call; the median of `runs`.
class DeviceTimer {
 public:
  DeviceTimer(const op::OpSpec& spec, std::string_view config, const Device& device, int runs)
      : spec_(spec),
        stream_(device),
        target_(op::Target::on(stream_)),
        runs_(runs),
        flush_(AnyTensor::empty(ir::ElementType::i8, 1, {int64_t{256} << 20}, device, stream_)) {
    const op::Configured meta = op::configure(spec, config);
    uint64_t seed = 1;
    for (const AnyTensor& t : meta.tensors) {
      const auto dtype = op::dtype_of(t.element_type());
      if (!dtype || !(*dtype == op::Dtype::f32 || *dtype == op::Dtype::f16 || *dtype == op::Dtype::bf16))
        throw UserError("cutile-ops tune fills float tensors only; " + std::string(spec.name) + " has a " +
                        std::string(ir::element_type_name(t.element_type())) + " tensor");
      const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
      op::with_float_element(t.element_type(),
                             [&]<class E>() { tensors_.push_back(randn<E>(shape, device, seed++)); });
    }
    for (const AnyTensor& t : tensors_) pointers_.push_back(&t);
    scalars_ = meta.scalars;
  }

  double operator()(const op::Choice& choice) {
    target_.force(&choice);
    for (int i = 0; i < 3; ++i) call();
    const double ms = runtime::median(runtime::times_ms_after_flush(stream_, flush_, runs_, [&] { call(); }));
    target_.force(nullptr);
    return ms * 1000.0;
  }

 private:
  void call() { op::run(spec_, target_, pointers_, scalars_); }

  const op::OpSpec& spec_;
  Stream stream_;
  op::Target target_;
  int runs_;
  std::vector<AnyTensor> tensors_;
  std::vector<const AnyTensor*> pointers_;
  std::vector<op::Scalar> scalars_;
  AnyTensor flush_;  // written before each timed call: L2 emptied, the stream kept busy
};

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
  const std::string release = op::tileiras_release();
  if (release.empty())
    throw UserError("no tileiras found: a record is keyed by the release that compiled it");
  const std::set<Key> done = recorded(options.out);
  std::ofstream out(options.out, std::ios::app);
  if (!out) throw RuntimeError("cannot append to " + options.out.string());
  for (const std::string& config : expanded) {
    if (done.contains({device.arch(), release, config})) {
      std::cout << spec.name << " at " << config << ": recorded already in " << options.out.string() << "\n";
      continue;
    }
    try {
      DeviceTimer timer(spec, config, device, options.runs);
      const op::Tuned tuned = op::autotune(spec, config, device.arch(), device.sm_count(), options.jobs,
                                           [&](const op::Choice& c) { return timer(c); });
      std::cout << spec.name << " at " << config << ":\n";
      print_candidates(tuned.candidates);
      std::cout << "  best: " << tuned.record.choice.text() << ", " << tuned.record.us << " us against "
                << tuned.record.default_us << " us\n";
      out << record_line(tuned.record) << "\n"
          << std::flush;  // one line per configuration: a killed run resumes
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
