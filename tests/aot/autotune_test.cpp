// The autotuner with the real tileiras and no GPU: the search space traced and compiled on threads, a
// record made from measurements (here a function of the choice standing in for the GPU's timer), and the
// record then chosen by the launcher for calls of its bucket on the record's GPU, and ignored, with the
// reason, when its tileiras release or its kernels differ from this build's.
#include <gtest/gtest.h>

#include "cutile/ir/printer.hpp"
#include "cutile/op/autotune.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace op = cutile::op;

class Autotune : public cutile::test_support::ToolchainTest {
 protected:
  const op::OpSpec& softmax = *op::find_op("softmax");
  static constexpr std::string_view kTma = "M=4096 N=8192 E=bf16 use_tma=1";  // policy: occupancy 4
};

// The occupancy a call's kernel is compiled with, on a trace target for sm_90.
std::string traced_hints(const op::OpSpec& spec, std::string_view config) {
  op::Target target = op::Target::trace_for("sm_90", 132);
  op::run_at(spec, config, target);
  if (target.traced().empty()) return "nothing traced";
  const std::string text = cutile::ir::print_module(*target.traced()[0].module);
  const size_t at = text.find("occupancy = ");
  return at == std::string::npos ? "none" : text.substr(at, text.find_first_of(",}", at) - at);
}

TEST_F(Autotune, EveryPointCompilesAndTheFastestBecomesTheRecord) {
  // Faster the higher the occupancy; the launcher's policy is 4 for rows of 16 KiB.
  auto measure = [](const op::Choice& c) {
    return 20.0 - static_cast<double>(c.value("occupancy").value_or(4));
  };
  const op::Tuned tuned = op::autotune(softmax, kTma, "sm_90", 132, 2, measure);
  ASSERT_EQ(tuned.candidates.size(), 5u);
  for (const op::Candidate& c : tuned.candidates) {
    EXPECT_EQ(c.refused, "") << c.choice.text();
    EXPECT_TRUE(c.us.has_value()) << c.choice.text();
  }
  const op::TuningRecord& r = tuned.record;
  EXPECT_EQ(r.op, "softmax");
  EXPECT_EQ(r.gpu, "sm_90");
  EXPECT_EQ(r.tileiras, op::tileiras_release());
  EXPECT_EQ(r.bucket, kTma);
  EXPECT_EQ(r.choice.text(), "occupancy=8");
  EXPECT_EQ(r.us, 12.0);
  EXPECT_EQ(r.default_us, 16.0);
  EXPECT_EQ(r.kernels, op::kernels_hash(softmax, kTma, "sm_90", 132, &r.choice));
}

TEST_F(Autotune, APointTheHintChecksRefuseIsKeptWithWhy) {
  op::OpSpec spec = softmax;
  spec.tuning = {op::tunable("occupancy", {4, 33})};
  const std::vector<op::Candidate> candidates = op::prepare(spec, kTma, "sm_90", 132, 1);
  ASSERT_EQ(candidates.size(), 3u);
  EXPECT_EQ(candidates[1].refused, "");
  EXPECT_NE(candidates[2].refused.find("occupancy"), std::string::npos) << candidates[2].refused;
}

TEST_F(Autotune, ARecordThatHoldsIsWhatTheLauncherLaunchesInItsBucketOnly) {
  const std::string release = op::tileiras_release();
  const op::Choice eight{{{"occupancy", 8}}};
  const op::TuningRecord records[] = {
      {"softmax", "sm_90", release, op::kernels_hash(softmax, kTma, "sm_90", 132, &eight), std::string(kTma),
       eight, 8.0, 16.0},
      {"softmax", "sm_90", "0.0.1", "0", "M=4096 N=4096 E=bf16 use_tma=1", eight, 8.0, 16.0},
      {"softmax", "sm_90", release, "0123456789abcdef", "M=4096 N=16384 E=bf16 use_tma=1", eight, 8.0, 16.0},
  };
  ASSERT_EQ(traced_hints(softmax, "M=3000 N=5000 E=bf16 use_tma=1"), "occupancy = 4") << "the policy, before";
  {
    const op::TuningRegistration registration{records};
    std::vector<std::string> reasons;
    for (const op::RecordStatus& s : op::tuning_status(softmax, op::Target::trace_for("sm_90", 132)))
      if (s.record >= records && s.record < records + 3) reasons.push_back(s.ignored_because);
    ASSERT_EQ(reasons.size(), 3u);
    EXPECT_EQ(reasons[0], "");
    EXPECT_EQ(reasons[1], "measured with tileiras 0.0.1, this process compiles with " + release);
    EXPECT_EQ(reasons[2], "the kernels at its bucket changed since it was measured");
    EXPECT_EQ(traced_hints(softmax, "M=3000 N=5000 E=bf16 use_tma=1"), "occupancy = 8") << "same bucket";
    EXPECT_EQ(traced_hints(softmax, "M=4096 N=4096 E=bf16 use_tma=1"), "occupancy = 6")
        << "an ignored record";
    EXPECT_EQ(traced_hints(softmax, "M=4096 N=16384 E=bf16 use_tma=1"), "occupancy = 2")
        << "an ignored record";
    EXPECT_EQ(traced_hints(softmax, "M=4096 N=8192 E=f16 use_tma=1"), "occupancy = 4") << "another dtype";
    op::Target sm100 = op::Target::trace_for("sm_100", 148);
    op::run_at(softmax, kTma, sm100);
    ASSERT_EQ(sm100.traced().size(), 1u);
    EXPECT_EQ(cutile::ir::print_module(*sm100.traced()[0].module).find("occupancy = 8"), std::string::npos)
        << "another GPU";
  }
  EXPECT_EQ(traced_hints(softmax, "M=3000 N=5000 E=bf16 use_tma=1"), "occupancy = 4") << "the record is gone";
}

}  // namespace
