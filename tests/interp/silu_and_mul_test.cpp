// The silu_and_mul op and its backward on the CPU interpreter through their launchers (op::run on the CPU
// target), against float64: every dtype, half widths within one row tile (ragged and exact) and past the
// widest (two tiles a row, the second ragged), x a strided (M, 2H).
#include <gtest/gtest.h>

#include "activation/silu_and_mul.hpp"
#include "cutile/op/run.hpp"
#include "support/activation_support.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using namespace cutile::test_support::activation;
using cutile::test_support::to_double;

struct Case {
  int64_t m, h;
};

class CpuSiluAndMul : public ::testing::TestWithParam<Case> {};

TEST_P(CpuSiluAndMul, ForwardAndBackwardEveryDtype) {
  const auto [m, h] = GetParam();
  auto check = [&]<ct::Element E>() {
    const Gated<E> g(m, h, 5);
    std::vector<double> ref, ga, gb;
    for (size_t i = 0; i < g.av.size(); ++i) {
      ref.push_back(silu(g.av[i]) * g.bv[i]);
      ga.push_back(g.dyv[i] * g.bv[i] * silu_grad(g.av[i]));
      gb.push_back(g.dyv[i] * silu(g.av[i]));
    }
    ct::op::Target target = cpu_target();
    auto y = ct::empty<E>({m, h}, ct::Device::cpu());
    ct::op::run(lib::silu_and_mul_op, target, {&y, &g.x});
    expect_close<E>(to_double(y), ref, "silu_and_mul " + g.shape());
    auto dx = ct::empty<E>({m, 2 * h}, ct::Device::cpu());
    ct::op::run(lib::silu_and_mul_backward_op, target, {&dx, &g.dy, &g.x});
    expect_close<E>(to_double(dx), g.cat(ga, gb), "silu_and_mul backward " + g.shape());
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

INSTANTIATE_TEST_SUITE_P(Shapes, CpuSiluAndMul,
                         ::testing::Values(Case{1, 1}, Case{7, 100}, Case{3, 300}, Case{2, 1024}, Case{2, 16500}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.h); });

}  // namespace
