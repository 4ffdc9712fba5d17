#include <chrono>
#include <ctime>
#include <fstream>
#include <regex>
#include <set>
#include <tuple>

#include "cutile/error.hpp"
#include "cutile/host/stream.hpp"
#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/dispatch.hpp"
#include "cutile/runtime/event_timer.hpp"

namespace cutile::op {
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

}  // namespace

std::string record_line(const TuningRecord& r) {
  std::string choice;
  for (const auto& [name, value] : r.choice.values)
    choice += (choice.empty() ? "" : ", ") + ("\"" + name + "\": " + std::to_string(value));
  char times[96];
  std::snprintf(times, sizeof times, "\"us\": %.3f, \"default_us\": %.3f", r.us, r.default_us);
  return "{\"op\": \"" + r.op + "\", \"gpu\": \"" + r.gpu + "\", \"tileiras\": \"" + r.tileiras +
         "\", \"kernels\": \"" + r.kernels + "\", \"bucket\": \"" + r.bucket + "\", \"choice\": {" + choice +
         "}, " + times + ", \"date\": \"" + today() + "\"}";
}

namespace {

// Random tensors of the shapes of `meta`'s, on `device`.
std::vector<std::vector<AnyTensor>> random_like(const OpSpec& spec, const Configured& meta, const Device& device) {
  std::vector<std::vector<AnyTensor>> tensors;
  uint64_t seed = 1;
  for (const std::vector<AnyTensor>& argument : meta.tensors) {
    std::vector<AnyTensor>& made = tensors.emplace_back();
    for (const AnyTensor& t : argument) {
      const auto dtype = dtype_of(t.element_type());
      if (!dtype || !(*dtype == Dtype::f32 || *dtype == Dtype::f16 || *dtype == Dtype::bf16))
        throw UserError("the tuner fills float tensors only; " + std::string(spec.name) + " has a " +
                        std::string(ir::element_type_name(t.element_type())) + " tensor");
      const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
      with_float_element(t.element_type(), [&]<class E>() { made.push_back(randn<E>(shape, device, seed++)); });
    }
  }
  return tensors;
}

// Device time of one call of the op with a choice forced: CUDA events around the call, after a write of
// 256 MiB that empties L2 and keeps the stream busy while the host queues the call; the median of `runs`.
class DeviceTimer {
 public:
  DeviceTimer(const OpSpec& spec, std::string_view config, const Device& device, int runs)
      : DeviceTimer(spec, configure(spec, config), device, runs) {}

  double operator()(const Choice& choice) {
    target_.force(&choice);
    for (int i = 0; i < 3; ++i) call();
    const double ms = runtime::median(runtime::times_ms_after_flush(stream_, flush_, runs_, [&] { call(); }));
    target_.force(nullptr);
    return ms * 1000.0;
  }

 private:
  DeviceTimer(const OpSpec& spec, Configured meta, const Device& device, int runs)
      : spec_(spec),
        stream_(device),
        target_(Target::on(stream_)),
        runs_(runs),
        tensors_(random_like(spec, meta, device)),
        elements_(tensors_),
        scalars_(std::move(meta.scalars)),
        flush_(AnyTensor::empty(ir::ElementType::i8, 1, {int64_t{256} << 20}, device, stream_)) {}

  void call() { run(spec_, target_, elements_.elements(), scalars_); }

  const OpSpec& spec_;
  Stream stream_;
  Target target_;
  int runs_;
  std::vector<std::vector<AnyTensor>> tensors_;
  ElementTable elements_;
  std::vector<Scalar> scalars_;
  AnyTensor flush_;  // written before each timed call: L2 emptied, the stream kept busy
};

}  // namespace

DeviceTuning tune_on_device(const OpSpec& spec, std::string_view config, const Device& device,
                            const std::filesystem::path& records, int jobs, int runs) {
  if (spec.tuning.empty()) throw UserError(std::string(spec.name) + " has no tuning space (OpSpec::tuning)");
  if (jobs < 1 || runs < 1) throw UserError("tuning takes a positive count of jobs and runs");
  const std::string release = tileiras_release();
  if (release.empty())
    throw UserError("no tileiras found: a record is keyed by the release that compiled it");
  if (recorded(records).contains({device.arch(), release, std::string(config)})) return {true, {}};
  DeviceTimer timer(spec, config, device, runs);
  DeviceTuning done{false, autotune(spec, config, device.arch(), device.sm_count(), jobs,
                                    [&](const Choice& c) { return timer(c); })};
  std::ofstream out(records, std::ios::app);
  out << record_line(done.tuned.record) << "\n"
      << std::flush;  // a line per configuration: a cut-off run resumes
  if (!out) throw RuntimeError("cannot append a tuning record to " + records.string());
  return done;
}

}  // namespace cutile::op
