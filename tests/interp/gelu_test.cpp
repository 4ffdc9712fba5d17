// The gelu op and its backward on the CPU interpreter through their launchers (op::run on the CPU target),
// against float64 references of TileGym's two forms computed from the same (rounded) inputs: every dtype and
// form, ragged lengths, a strided input; and the 4096-element tile, which the launcher takes from 2^24
// elements on, at lengths the interpreter runs quickly.
#include <gtest/gtest.h>

#include "activation/gelu.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "support/activation_support.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using lib::GeluApprox;
using namespace cutile::test_support::activation;
using cutile::test_support::to_double;

/// For a result computed in E (not only rounded to it): |out − ref| ≤ 4 units of E's rounding (2^-11
/// f16, 2^-8 bf16) of |x| + |ref|. The forward rounds every step to E, and the error of ½x·(1 + t) is t's
/// few roundings scaled by ½|x|, also where the result is near zero (x ≪ 0).
template <ct::Element E>
void expect_close_computed_in(const std::vector<double>& out, const std::vector<double>& ref,
                              const std::vector<double>& x, const std::string& what) {
  if constexpr (std::is_same_v<E, float>) return expect_close<E>(out, ref, what);
  const double unit = std::is_same_v<E, ct::f16> ? 0x1p-11 : 0x1p-8;
  ASSERT_EQ(out.size(), ref.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < ref.size() && bad < 5; ++i)
    if (!(std::abs(out[i] - ref[i]) <= 4 * unit * (std::abs(x[i]) + std::abs(ref[i])))) {
      ADD_FAILURE() << what << " (" << ct::element_traits<E>::name << ") at " << i << ": " << out[i] << " vs "
                    << ref[i];
      ++bad;
    }
}

std::vector<double> forward(GeluApprox a, const std::vector<double>& x) {
  std::vector<double> y;
  for (double v : x) y.push_back(gelu(a, v));
  return y;
}

TEST(CpuGelu, BothFormsEveryDtypeRaggedAndStrided) {
  auto check = [&]<ct::Element E>() {
    for (GeluApprox a : {GeluApprox::none, GeluApprox::tanh}) {
      for (int64_t n : {3, 1000, 5000}) {
        const std::string what = std::string("gelu ") + form_name(a) + " n=" + std::to_string(n);
        auto x = ct::randn<E>({2 * n}, ct::Device::cpu(), 2).as_strided({n}, {2});  // every other element
        auto y = ct::empty<E>({n}, ct::Device::cpu());
        ct::op::Target target = cpu_target();
        ct::op::run(lib::gelu_op, target, {&y, &x}, {a});
        const std::vector<double> xs = to_double(x);
        expect_close_computed_in<E>(to_double(y), forward(a, xs), xs, what);

        auto dy = ct::randn<E>({n}, ct::Device::cpu(), 3);
        auto dx = ct::empty<E>({n}, ct::Device::cpu());
        ct::op::run(lib::gelu_backward_op, target, {&dx, &dy, &x}, {a});
        const std::vector<double> dys = to_double(dy);
        std::vector<double> ref;
        for (size_t i = 0; i < xs.size(); ++i) ref.push_back(dys[i] * gelu_grad(a, xs[i]));
        expect_close<E>(to_double(dx), ref, what + " backward");
      }
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

template <ct::Element E, GeluApprox A>
void check_wide_tile(int64_t n) {
  auto x = ct::randn<E>({n}, ct::Device::cpu(), 4);
  auto y = ct::empty<E>({n}, ct::Device::cpu());
  ct::launch(lib::gelu<E, A, 4096>, y.partition({4096}), x).sync();
  const std::vector<double> xs = to_double(x);
  expect_close_computed_in<E>(to_double(y), forward(A, xs), xs, "gelu tile 4096 n=" + std::to_string(n));
}

TEST(CpuGeluKernels, WideTileOnShortVectors) {
  check_wide_tile<float, GeluApprox::none>(5000);
  check_wide_tile<ct::f16, GeluApprox::tanh>(4096);
  check_wide_tile<ct::bf16, GeluApprox::tanh>(9000);
}

}  // namespace
