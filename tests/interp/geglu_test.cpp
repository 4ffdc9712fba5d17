// The geglu op and its backward on the CPU interpreter through their launchers (op::run on the CPU target),
// against float64 references of TileGym's GELU forms: every dtype and form, row lengths that take each of the
// launcher's (BM, BN) tiles with ragged rows and columns, x a strided (M, 2N) whose halves are read as views.
#include <gtest/gtest.h>

#include "activation/geglu.hpp"
#include "cutile/op/run.hpp"
#include "support/activation_support.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using lib::GeluApprox;
using namespace cutile::test_support::activation;
using cutile::test_support::to_double;

struct Case {
  int64_t m, n;
};

class CpuGeglu : public ::testing::TestWithParam<Case> {};

TEST_P(CpuGeglu, ForwardAndBackwardBothFormsEveryDtype) {
  const auto [m, n] = GetParam();
  auto check = [&]<ct::Element E>() {
    const Gated<E> g(m, n, 4);
    for (GeluApprox a : {GeluApprox::none, GeluApprox::tanh}) {
      const std::string what = std::string("geglu ") + form_name(a) + " " + g.shape();
      std::vector<double> ref, ga, gb;
      for (size_t i = 0; i < g.av.size(); ++i) {
        ref.push_back(g.av[i] * gelu(a, g.bv[i]));
        ga.push_back(g.dyv[i] * gelu(a, g.bv[i]));
        gb.push_back(g.dyv[i] * g.av[i] * gelu_grad(a, g.bv[i]));
      }
      ct::op::Target target = cpu_target();
      auto y = ct::empty<E>({m, n}, ct::Device::cpu());
      ct::op::run(lib::geglu_op, target, {&y, &g.x}, {a});
      expect_close<E>(to_double(y), ref, what);
      auto dx = ct::empty<E>({m, 2 * n}, ct::Device::cpu());
      ct::op::run(lib::geglu_backward_op, target, {&dx, &g.dy, &g.x}, {a});
      expect_close<E>(to_double(dx), g.cat(ga, gb), what + " backward");
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

// Tiles (64, 16), (16, 64), (4, 256) and (1, 1024): the row lengths at and past each bound.
INSTANTIATE_TEST_SUITE_P(Shapes, CpuGeglu,
                         ::testing::Values(Case{1, 2}, Case{37, 5}, Case{17, 64}, Case{20, 33}, Case{9, 200},
                                           Case{2, 1500}),
                         [](const auto& p) { return std::to_string(p.param.m) + "x" + std::to_string(p.param.n); });

}  // namespace
