// The swiglu op and its backward on the CPU interpreter through their launchers (op::run on the CPU target),
// against float64: every dtype, row lengths within one row tile and past the widest, a and b strided views
// of one buffer; the backward on 1, 3, 16 and 132 SMs, whose row splits give it tiles from 64 to the row.
#include <gtest/gtest.h>

#include "activation/swiglu.hpp"
#include "cutile/op/run.hpp"
#include "support/activation_support.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using namespace cutile::test_support::activation;
using cutile::test_support::to_double;

struct Case {
  int64_t m, n;
};

class CpuSwiglu : public ::testing::TestWithParam<Case> {};

TEST_P(CpuSwiglu, ForwardAndBackwardEveryDtype) {
  const auto [m, n] = GetParam();
  auto check = [&]<ct::Element E>() {
    const Gated<E> g(m, n, 6);  // a and b: the halves of one strided buffer; dy is dc
    std::vector<double> ref, ga, gb;
    for (size_t i = 0; i < g.av.size(); ++i) {
      // silu(a) is rounded to E: the product is taken in E
      ref.push_back(ct::from_element(ct::to_element<E>(silu(g.av[i]))) * g.bv[i]);
      ga.push_back(g.dyv[i] * g.bv[i] * silu_grad(g.av[i]));
      gb.push_back(g.dyv[i] * silu(g.av[i]));
    }
    ct::op::Target forward_target = cpu_target();
    auto c = ct::empty<E>({m, n}, ct::Device::cpu());
    ct::op::run(lib::swiglu_op, forward_target, {&c, &g.a, &g.b});
    expect_close<E>(to_double(c), ref, "swiglu " + g.shape());
    for (int sms : {1, 3, 16, 132}) {
      const std::string what = "swiglu backward " + g.shape() + " on " + std::to_string(sms) + " SMs";
      ct::op::Target target = cpu_target(sms);
      auto da = ct::empty<E>({m, n}, ct::Device::cpu()), db = ct::empty<E>({m, n}, ct::Device::cpu());
      ct::op::run(lib::swiglu_backward_op, target, {&da, &db, &g.dy, &g.a, &g.b});
      expect_close<E>(to_double(da), ga, what + " da");
      expect_close<E>(to_double(db), gb, what + " db");
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuSwiglu,
                         ::testing::Values(Case{1, 1}, Case{7, 100}, Case{3, 300}, Case{5, 256}, Case{2, 16500}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.n); });

}  // namespace
