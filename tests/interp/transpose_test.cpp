// The transpose op and its backward on the CPU interpreter through their launcher: both tile sizes, every
// dtype, ragged edges, strided inputs; a transpose is exact.
#include <gtest/gtest.h>

#include "cutile/op/run.hpp"
#include "gemm/transpose.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::to_double;

template <ct::Element E>
void check(int64_t m, int64_t n, const ct::op::OpSpec& op) {
  const ct::Device cpu = ct::Device::cpu();
  const ct::Tensor<E> base = ct::randn<E>({m, 2 * n}, cpu, 7);
  const ct::Tensor<E> x = base.as_strided({m, n}, {2 * n, 2});  // every other column: a strided input
  auto y = ct::empty<E>({n, m}, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu));
  ct::op::run(op, target, {&y, &x});
  const std::vector<double> hb = to_double(base), hy = to_double(y);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      ASSERT_EQ(hy[static_cast<size_t>(j * m + i)], hb[static_cast<size_t>(i * 2 * n + 2 * j)])
          << op.name << " " << m << "x" << n << " at " << i << ", " << j;
}

TEST(CpuTranspose, EveryDtypeAndBothTiles) {
  for (const ct::op::OpSpec* op : {&ct::kernels::transpose_op, &ct::kernels::transpose_backward_op}) {
    check<float>(130, 70, *op);
    check<ct::f16>(65, 200, *op);
    check<ct::bf16>(4100, 4097, *op);  // 128×128 tiles, one ragged row and column of them
  }
}

}  // namespace
