// The relu op on the CPU interpreter through its launcher (op::run on the CPU target): every dtype, lengths
// within one tile and over several with a ragged last one, a strided input; exact against max(x, 0).
#include <gtest/gtest.h>

#include <algorithm>

#include "activation/relu.hpp"
#include "cutile/op/run.hpp"
#include "support/activation_support.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using namespace cutile::test_support::activation;
using cutile::test_support::to_double;

TEST(CpuRelu, EveryDtypeRaggedAndStrided) {
  auto check = [&]<ct::Element E>() {
    for (int64_t n : {1, 1000, 2049}) {
      auto x = ct::randn<E>({2 * n}, ct::Device::cpu(), 1).as_strided({n}, {2});  // every other element
      auto y = ct::empty<E>({n}, ct::Device::cpu());
      ct::op::Target target = cpu_target();
      ct::op::run(lib::relu_op, target, {&y, &x});
      const std::vector<double> xs = to_double(x), ys = to_double(y);
      for (size_t i = 0; i < xs.size(); ++i)
        ASSERT_EQ(ys[i], std::max(xs[i], 0.0)) << ct::element_traits<E>::name << " n=" << n << " at " << i;
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

}  // namespace
