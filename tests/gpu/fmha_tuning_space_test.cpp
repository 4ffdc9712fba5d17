// Every point of fmha's tuning space (its query tiles, occupancies and cluster sizes) gives on the GPU what
// the interpreter gives at the launcher's policy. One test per point, named after it, so that a tool run
// can pick points: compute-sanitizer's memcheck cannot run the 256-row tile (docs/reliability.md), so
// `--gtest_filter='*TILE_M_128*'` is its run.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>

#include "cutile/op/autotune.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/run.hpp"
#include "support/gpu_fixture.hpp"

// A point prints as its text (CTest lists each test with its parameter).
namespace cutile::op {
void PrintTo(const Choice& choice, std::ostream* out) { *out << choice.text(); }
}  // namespace cutile::op

namespace {

namespace ct = cutile;
namespace op = cutile::op;

const op::OpSpec& fmha() { return *op::find_op("fmha"); }

class FmhaTuningSpace : public cutile::test_support::GpuTest, public ::testing::WithParamInterface<op::Choice> {};

// The output of B 1, H 4, S 300, G 2, L 300, D 64, causal, on `device` at `choice`.
std::vector<ct::f16> attention(const ct::Device& device, const op::Choice& choice) {
  const ct::Device cpu = ct::Device::cpu();
  const auto upload = [&](std::vector<int64_t> shape, uint64_t seed) {
    return ct::from_host<ct::f16>(ct::randn<ct::f16>(shape, cpu, seed).to_host(), shape, device);
  };
  auto q = upload({1, 4, 300, 64}, 1), k = upload({1, 2, 300, 64}, 2), v = upload({1, 2, 300, 64}, 3);
  auto o = ct::empty<ct::f16>({1, 4, 300, 64}, device);
  op::Target target = op::Target::on(ct::Stream::default_stream(device));
  target.force(&choice);
  op::run(fmha(), target, {&o, &q, &k, &v}, {NAN, true});
  return o.to_host();
}

TEST_P(FmhaTuningSpace, AgreesWithTheInterpreter) {
  const std::vector<ct::f16> on_gpu = attention(*gpu, GetParam()), on_cpu = attention(ct::Device::cpu(), {});
  double num = 0, den = 0;
  for (size_t i = 0; i < on_cpu.size(); ++i) {
    const double a = ct::from_element(on_gpu[i]), b = ct::from_element(on_cpu[i]);
    ASSERT_TRUE(std::isfinite(a)) << "element " << i;
    num += (a - b) * (a - b);
    den += b * b;
  }
  EXPECT_LE(std::sqrt(num / den), 2e-3) << GetParam().text();
}

INSTANTIATE_TEST_SUITE_P(EveryPoint, FmhaTuningSpace, ::testing::ValuesIn(op::search_space(fmha())),
                         [](const ::testing::TestParamInfo<op::Choice>& point) {
                           std::string name = point.param.text();
                           for (char& c : name)
                             if (c == ' ' || c == '=') c = '_';
                           return name;
                         });

}  // namespace
