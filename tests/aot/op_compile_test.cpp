// Every op of the kernel library compiles with the real tileiras for sm_90 (132 SMs) at every
// configuration its description lists (its parity cases' and its `configurations`, sets expanded): its
// launcher runs on a compile target, so the kernels compiled are exactly those the op launches there.
#include <gtest/gtest.h>

#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"
#include "support/toolchain_fixture.hpp"

namespace {

namespace op = cutile::op;

struct Case {
  const op::OpSpec* op;
  std::string config;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const op::OpSpec* spec : op::registered_ops()) {
    for (const op::ParityCase& p : spec->parity) out.push_back({spec, std::string(p.config)});
    for (std::string_view set : spec->configurations)
      for (std::string& config : op::expand(set)) out.push_back({spec, std::move(config)});
  }
  return out;
}

class OpCompile : public cutile::test_support::ToolchainTest, public ::testing::WithParamInterface<Case> {};

TEST_P(OpCompile, EveryLaunchedKernelHasACubin) {
  const auto& [spec, config] = GetParam();
  op::Target target = op::Target::compile_for("sm_90", 132);
  op::run_at(*spec, config, target);
  ASSERT_FALSE(target.compiled().empty()) << spec->name << " at " << config << " launched nothing";
  for (const cutile::CompiledKernel& k : target.compiled()) {
    ASSERT_GE(k.cubin.size(), 4u) << k.name;
    EXPECT_EQ(std::string(k.cubin.begin() + 1, k.cubin.begin() + 4), "ELF") << k.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, OpCompile, ::testing::ValuesIn(cases()), [](const auto& p) {
  std::string name = std::string(p.param.op->name) + "_" + p.param.config;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name + "_" + std::to_string(p.index);
});

}  // namespace
