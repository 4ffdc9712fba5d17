// What the launchers launch: the kernels, in order, that an op's launcher launches at a configuration
// (op::run on a trace target for an H200's 132 SMs): TileGym's kernel choices, made once in the launcher.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"

namespace {

namespace op = cutile::op;

std::vector<std::string> launched(std::string_view name, std::string_view config, int sms = 132) {
  op::Target target = op::Target::trace_for("sm_90", sms);
  op::run_at(*op::find_op(name), config, target);
  std::vector<std::string> names;
  for (const op::TracedKernel& k : target.traced()) names.push_back(k.name);
  return names;
}

using Names = std::vector<std::string>;

TEST(OpLaunch, SoftmaxFlagsPickTileGymsKernel) {
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32"), Names{"softmax_gather"});
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32 use_multi_wave=1"), Names{"softmax_row"});
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32 use_tma=1"), Names{"softmax_tma"});
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32 use_chunked=1"), Names{"softmax_chunked"});
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32 use_tma=1 use_multi_wave=1"), Names{"softmax_row"});
  EXPECT_EQ(launched("softmax", "M=8 N=100 E=f32 use_chunked=1 use_multi_wave=1"), Names{"softmax_row"});
  EXPECT_EQ(launched("softmax", "M=8 N=20000 E=f32 use_tma=1"), Names{"softmax_chunked"})
      << "rows past 16384 columns take the chunked kernel";
}

TEST(OpLaunch, RmsNormAutoIsPersistentPastTwoWaves) {
  EXPECT_EQ(launched("rms_norm", "M=265 N=64 E=bf16"), Names{"rms_norm_static_persistent"});
  EXPECT_EQ(launched("rms_norm", "M=264 N=64 E=bf16"), Names{"rms_norm_row_reload"});
  EXPECT_EQ(launched("rms_norm", "M=7 N=64 E=bf16", 3), Names{"rms_norm_static_persistent"});
  EXPECT_EQ(launched("rms_norm", "M=8 N=64 E=bf16 mode=multi_wave_cached"), Names{"rms_norm_row_cached"});
}

TEST(OpLaunch, RmsNormBackwardSumsItsPartials) {
  EXPECT_EQ(launched("rms_norm_backward", "M=100 N=64 E=f16"), (Names{"rms_norm_backward", "rms_norm_backward_dweight"}));
  EXPECT_EQ(launched("rms_norm_backward", "M=0 N=64 E=f16"), Names{"rms_norm_backward_dweight"})
      << "no rows: only the zero sum";
}

}  // namespace
