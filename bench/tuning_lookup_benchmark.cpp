// The run-time cost of tuning records to a launch: what op::launch adds before the launcher runs, for a
// call whose bucket has a record (softmax with one record), one whose bucket has none, and an op with no
// tunables. Host work only, on meta tensors, so it runs anywhere; needs tileiras (a record's key).
#include <benchmark/benchmark.h>

#include <cstdio>

#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/tuning.hpp"

namespace {

namespace op = cutile::op;

struct Call {
  const op::OpSpec& spec;
  op::Configured configured;
  op::ElementTable tensors;

  Call(std::string_view name, std::string_view config)
      : spec(*op::find_op(name)), configured(op::configure(spec, config)), tensors(configured.tensors) {}
  op::Arguments arguments() const { return {tensors.elements(), configured.scalars}; }
};

constexpr std::string_view kTuned = "M=4096 N=8192 E=bf16 use_tma=1";

void lookup(benchmark::State& state, const Call& call) {
  const op::Target target = op::Target::compile_for("sm_90", 132);
  const op::Arguments args = call.arguments();
  benchmark::DoNotOptimize(
      op::recorded_choice(call.spec, target, args));  // the first call checks the records
  for (auto _ : state) benchmark::DoNotOptimize(op::recorded_choice(call.spec, target, args));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string release = op::tileiras_release();
  if (release.empty()) {
    std::fprintf(stderr, "no tileiras found: a record's key names its release\n");
    return 1;
  }
  static const Call hit("softmax", "M=3000 N=5000 E=bf16 use_tma=1"),
      miss("softmax", "M=64 N=256 E=f32 use_tma=1"), untuned("rms_norm", "M=4096 N=4096 E=bf16");
  static const op::Choice eight{{{"occupancy", 8}}};
  static const op::TuningRecord records[] = {{"softmax", "sm_90", release,
                                              op::kernels_hash(hit.spec, kTuned, "sm_90", 132, &eight),
                                              std::string(kTuned), eight, 1, 2}};
  static const op::TuningRegistration registration{records};
  if (!op::tuning_status(hit.spec, op::Target::compile_for("sm_90", 132)).front().ignored_because.empty())
    return 1;
  benchmark::RegisterBenchmark("recorded_choice/softmax_bucket_with_record", lookup, std::cref(hit));
  benchmark::RegisterBenchmark("recorded_choice/softmax_bucket_without_record", lookup, std::cref(miss));
  benchmark::RegisterBenchmark("recorded_choice/rms_norm_no_tunables", lookup, std::cref(untuned));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
