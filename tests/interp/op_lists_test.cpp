// An op whose arguments are lists, end to end on Device::cpu(): the test op scale_groups (list_op/), a
// listed input and a listed output of ragged elements, through op::run and its launcher's InList and
// OutTilesList, every dtype and several grid sizes, elements with no rows, and its aot configurations
// traced.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cutile/op/configuration.hpp"
#include "cutile/op/run.hpp"
#include "list_op/scale_groups.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace op = cutile::op;
using cutile::test_support::scale_groups_op;
using cutile::test_support::to_double;

// ys[g] = factor · xs[g] through op::run on `sm_count` SMs (grid sizes), ys poisoned with NaN so that a
// row no block wrote fails.
template <ct::Element E>
void check_scale_groups(const std::vector<std::pair<int64_t, int64_t>>& shapes, int sm_count, double factor) {
  const ct::Device cpu = ct::Device::cpu();
  std::vector<ct::Tensor<E>> xs, ys;
  uint64_t seed = 7;
  for (const auto& [m, n] : shapes) {
    xs.push_back(ct::randn<E>({m, n}, cpu, seed++));
    const std::vector<E> poison(static_cast<size_t>(m * n),
                                ct::to_element<E>(std::numeric_limits<double>::quiet_NaN()));
    ys.push_back(ct::from_host<E>(poison, {m, n}, cpu));
  }
  std::vector<const ct::AnyTensor*> x_args, y_args;
  for (const auto& x : xs) x_args.push_back(&x);
  for (const auto& y : ys) y_args.push_back(&y);
  const op::Elements<ct::AnyTensor> tensors[] = {y_args, x_args};
  op::Target target = op::Target::on(ct::Stream::default_stream(cpu), sm_count);
  op::run(scale_groups_op, target, tensors, {factor});
  for (size_t g = 0; g < shapes.size(); ++g) {
    const std::vector<double> x = to_double(xs[g]), y = to_double(ys[g]);
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = ct::from_element(ct::to_element<E>(factor * x[i]));
      ASSERT_NEAR(y[i], want, 1e-6 + 1e-2 * std::abs(want)) << "element " << g << ", value " << i;
    }
  }
}

const std::vector<std::pair<int64_t, int64_t>> kRagged = {{5, 3}, {1, 64}, {17, 40}, {2, 1}};

TEST(CpuOpLists, AListedOutputIsWrittenPerElementThroughOpRun) {
  for (const int sm_count : {1, 3, 64})  // 64: more blocks than the 25 rows of all elements
    check_scale_groups<float>(kRagged, sm_count, 2.0);
  check_scale_groups<ct::f16>(kRagged, 4, -0.5);
  check_scale_groups<ct::bf16>({{33, 64}}, 2, 3.0);
}

TEST(CpuOpLists, ElementsWithNoRowsAreSkipped) {
  check_scale_groups<float>({{0, 8}, {3, 8}, {0, 64}}, 2, 2.0);
  check_scale_groups<float>({{0, 8}, {0, 3}}, 2, 2.0);  // nothing to write: nothing launches
}

TEST(CpuOpLists, TheConfigurationsTrace) {
  for (std::string_view set : scale_groups_op.configurations)
    for (const std::string& config : op::expand(set)) {
      op::Target target = op::Target::trace_for("sm_90", 132);
      op::run_at(scale_groups_op, config, target);
      ASSERT_EQ(target.traced().size(), 1u) << config;
      EXPECT_EQ(target.traced()[0].name, "scale_groups") << config;
    }
}

}  // namespace
