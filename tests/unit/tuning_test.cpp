// The autotuner's pieces that need no tileiras: the search space of a description, which choice a
// launcher sees (Target::tuned), shape buckets, the hash of the kernels a choice launches, and records
// ignored with their reasons.
#include <gtest/gtest.h>

#include "cutile/ir/builder.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"

namespace {

namespace op = cutile::op;

const op::OpSpec& softmax() {
  return *op::find_op("softmax");
}

constexpr std::string_view kTma = "M=4096 N=8192 E=bf16 use_tma=1";  // policy: occupancy 4

TEST(Tuning, TheSearchSpaceIsThePolicyThenEveryCombination) {
  op::OpSpec spec = softmax();
  spec.tuning = {op::tunable("occupancy", {2, 4}), op::tunable("TILE", {64, 128, 256})};
  const std::vector<op::Choice> space = op::search_space(spec);
  ASSERT_EQ(space.size(), 1u + 2 * 3);
  EXPECT_EQ(space[0].text(), "default");
  EXPECT_EQ(space[1].text(), "occupancy=2 TILE=64");
  EXPECT_EQ(space.back().text(), "occupancy=4 TILE=256");
  spec.tuning.clear();
  EXPECT_EQ(op::search_space(spec).size(), 1u);
}

TEST(Tuning, ALauncherSeesTheForcedChoiceThenTheRecordThenItsPolicy) {
  op::Target target = op::Target::trace_for("sm_90", 132);
  const op::Choice recorded{{{"occupancy", 6}}}, forced{{{"occupancy", 8}}}, policy;
  EXPECT_EQ(target.tuned("occupancy", 2), 2);
  target.use_record(&recorded);
  EXPECT_EQ(target.tuned("occupancy", 2), 6);
  EXPECT_EQ(target.tuned("TILE", 64), 64) << "a tunable the record does not name keeps the policy";
  target.force(&forced);
  EXPECT_EQ(target.tuned("occupancy", 2), 8);
  target.force(&policy);
  EXPECT_EQ(target.tuned("occupancy", 2), 2)
      << "a forced empty choice is the launcher's policy, not the record";
}

TEST(Tuning, ACallsBucketRoundsDimsUpToPowersOfTwoAndKeepsDtypesAndFlags) {
  const op::OpSpec& spec = softmax();
  const uint64_t bucket = op::bucket_key(spec, kTma);
  EXPECT_EQ(op::bucket_key(spec, "M=3000 N=4097 E=bf16 use_tma=1"), bucket);
  EXPECT_NE(op::bucket_key(spec, "M=4096 N=8193 E=bf16 use_tma=1"), bucket);
  EXPECT_NE(op::bucket_key(spec, "M=4096 N=8192 E=f16 use_tma=1"), bucket);
  EXPECT_NE(op::bucket_key(spec, "M=4096 N=8192 E=bf16 use_tma=0"), bucket);
  // Reals and integers are no shape: dropout's seed and probability do not split its buckets.
  const op::OpSpec& dropout = *op::find_op("dropout");
  const op::Configured a = op::configure(dropout, "N=1000 E=f32 p=0.25 seed=1");
  const op::Configured b = op::configure(dropout, "N=1000 E=f32 p=0.5 seed=99");
  const op::ElementTable ta(a.tensors), tb(b.tensors);
  EXPECT_EQ(op::bucket_key(dropout, op::Arguments{ta.elements(), a.scalars}),
            op::bucket_key(dropout, op::Arguments{tb.elements(), b.scalars}));
}

TEST(Tuning, TheKernelsHashFollowsTheChoiceItLaunches) {
  const op::OpSpec& spec = softmax();
  const op::Choice eight{{{"occupancy", 8}}}, two{{{"occupancy", 2}}};
  const std::string h8 = op::kernels_hash(spec, kTma, "sm_90", 132, &eight);
  EXPECT_EQ(h8.size(), 16u);
  EXPECT_EQ(op::kernels_hash(spec, kTma, "sm_90", 132, &eight), h8) << "the hash is deterministic";
  EXPECT_NE(op::kernels_hash(spec, kTma, "sm_90", 132, &two), h8) << "the occupancy hint is in the kernel";
  // The choice reaches the kernel's hints.
  op::Target target = op::Target::trace_for("sm_90", 132);
  target.force(&eight);
  op::run_at(spec, kTma, target);
  ASSERT_EQ(target.traced().size(), 1u);
  EXPECT_NE(cutile::ir::print_module(*target.traced()[0].module).find("occupancy = 8"), std::string::npos);
}

// fmha's space: TileGym's query tiles, occupancies and cluster sizes reach its kernel; its policy sets no cluster.
TEST(Tuning, FmhasChoiceReachesItsKernel) {
  const op::OpSpec& spec = *op::find_op("fmha");
  constexpr std::string_view config = "B=1 H=2 S=300 G=2 L=300 D=64 E=f16 is_causal=1";
  const op::Choice smaller{{{"TILE_M", 128}, {"occupancy", 1}, {"num_ctas", 2}}},
      larger{{{"TILE_M", 256}, {"occupancy", 1}, {"num_ctas", 2}}}, policy;
  EXPECT_NE(op::kernels_hash(spec, config, "sm_90", 132, &smaller), op::kernels_hash(spec, config, "sm_90", 132, &larger))
      << "the query tile is in the kernel";
  const auto printed = [&](const op::Choice& choice) {
    op::Target target = op::Target::trace_for("sm_90", 132);
    target.force(&choice);
    op::run_at(spec, config, target);
    EXPECT_EQ(target.traced().size(), 1u);
    return cutile::ir::print_module(*target.traced()[0].module);
  };
  EXPECT_NE(printed(smaller).find("num_cta_in_cga = 2, occupancy = 1"), std::string::npos);
  const std::string at_policy = printed(policy);
  EXPECT_NE(at_policy.find("occupancy = 2"), std::string::npos);
  EXPECT_EQ(at_policy.find("num_cta_in_cga"), std::string::npos);
}

// A record measured on a tree built elsewhere holds here: the debug section's source paths are left out.
TEST(Tuning, TheKernelsHashLeavesOutWhereTheSourceWas) {
  namespace ir = cutile::ir;
  const auto kernel = [](const std::string& file, int64_t div_by) {
    auto m = std::make_shared<ir::Module>("k");
    ir::Function& f = m->add_function("k", {ir::pointer_type(ir::ElementType::f32)}, {file, 3, 1});
    ir::Builder b(f.entry_block());
    b.set_location({file, 4, 7});
    b.assume(f.parameter(0), ir::Attribute::div_by(div_by));
    b.return_();
    return std::vector<op::TracedKernel>{{"k", std::move(m)}};  // what a trace target records
  };
  const std::string here = op::kernels_hash(kernel("/work/tree/kernels/k.hpp", 16));
  EXPECT_EQ(op::kernels_hash(kernel("../../kernels/k.hpp", 16)), here);
  EXPECT_NE(op::kernels_hash(kernel("/work/tree/kernels/k.hpp", 8)), here)
      << "a changed hint is a new kernel";
}

TEST(Tuning, RecordsForAnotherGpuOrForTheInterpreterAreIgnoredWithTheirReason) {
  const op::TuningRecord records[] = {
      {"softmax", "sm_100", "13.4.92", "0", std::string(kTma), {{{"occupancy", 8}}}, 8.0, 16.0},
      {"softmax", "interpret", "13.4.92", "0", std::string(kTma), {{{"occupancy", 8}}}, 8.0, 16.0},
  };
  const op::TuningRegistration registration{records};
  const op::Target target = op::Target::trace_for("interpret", 4);
  std::vector<std::string> reasons;
  for (const op::RecordStatus& s : op::tuning_status(softmax(), target))
    if (s.record >= records && s.record < records + 2) reasons.push_back(s.ignored_because);
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_EQ(reasons[0], "measured on sm_100, this target is interpret");
  EXPECT_EQ(reasons[1], "the interpreter takes no tuning: its launches keep the launchers' policy");
  const op::Configured call = op::configure(softmax(), kTma);
  const op::ElementTable tensors(call.tensors);
  EXPECT_EQ(op::recorded_choice(softmax(), target, op::Arguments{tensors.elements(), call.scalars}), nullptr);
}

}  // namespace
