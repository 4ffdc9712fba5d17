// The CPU interpreter and the GPU on the same inputs: the example and library kernels launched on
// Device(0) and on Device::cpu() with identical random inputs, the two outputs compared element by element
// (‖gpu − cpu‖ / ‖cpu‖ within the output type's tolerance). Skipped with the reason where there is no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>

#include "attention/fmha.hpp"
#include "cutile/host/launch.hpp"
#include "gemm/matmul.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "01_vector_add/vector_add.hpp"
#include "support/dsl_vocabulary_kernels.hpp"
#include "support/gpu_fixture.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

template <ct::Element E>
double relative_difference(const ct::Tensor<E>& gpu, const ct::Tensor<E>& cpu) {
  const std::vector<E> g = gpu.to_host(), c = cpu.to_host();
  double num = 0, den = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const double a = ct::from_element(g[i]), b = ct::from_element(c[i]);
    if (!std::isfinite(a) || !std::isfinite(b)) return INFINITY;
    num += (a - b) * (a - b);
    den += b * b;
  }
  return std::sqrt(num / std::max(den, 1e-300));
}

// The same values on both devices: generated once on the host, uploaded to each.
template <ct::Element E>
std::pair<ct::Tensor<E>, ct::Tensor<E>> same_randn(std::vector<int64_t> shape, const ct::Device& gpu, uint64_t seed) {
  const ct::Device cpu = ct::Device::cpu();
  auto on_cpu = ct::randn<E>(shape, cpu, seed);
  const std::vector<E> values = on_cpu.to_host();
  return {ct::from_host<E>(values, shape, gpu), on_cpu};
}

class InterpreterAgreement : public cutile::test_support::GpuTest {
 protected:

  // Runs `launch(out, inputs...)` on both devices and compares the outputs.
  template <ct::Element E, class Launch>
  void expect_agreement(std::vector<int64_t> out_shape, double tolerance, Launch launch) {
    auto out_gpu = ct::empty<E>(out_shape, *gpu);
    auto out_cpu = ct::empty<E>(out_shape, ct::Device::cpu());
    launch(out_gpu, true);
    launch(out_cpu, false);
    EXPECT_LE(relative_difference(out_gpu, out_cpu), tolerance);
  }
};

TEST_F(InterpreterAgreement, VectorAdd) {
  auto [a_gpu, a_cpu] = same_randn<ct::f16>({100'003}, *gpu, 1);
  auto [b_gpu, b_cpu] = same_randn<ct::f16>({100'003}, *gpu, 2);
  expect_agreement<ct::f16>({100'003}, 0.0, [&](ct::Tensor<ct::f16>& c, bool on_gpu) {
    ct::launch(examples::vector_add<ct::f16, 1024>, c.partition({1024}), on_gpu ? a_gpu : a_cpu, on_gpu ? b_gpu : b_cpu)
        .sync();
  });
}

TEST_F(InterpreterAgreement, RowSoftmaxInEachElementType) {
  auto check = [&]<class E>(double tolerance) {
    auto [x_gpu, x_cpu] = same_randn<E>({37, 1000}, *gpu, 3);
    expect_agreement<E>({37, 1000}, tolerance, [&](ct::Tensor<E>& y, bool on_gpu) {
      ct::launch(examples::row_softmax<E, 1024>, y.partition({1, 1024}), on_gpu ? x_gpu : x_cpu).sync();
    });
  };
  // The GPU's exp and division are not bit-identical to the interpreter's: a few ulps of the output.
  check.template operator()<float>(1e-5);
  check.template operator()<ct::f16>(2e-3);
  check.template operator()<ct::bf16>(1e-2);
}

// The launch options of a kernel that stores one tile per block (for_block_tile).
ct::LaunchOptions one_block_per_tile(int64_t tiles) {
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{tiles, 1, 1};
  return options;
}

TEST_F(InterpreterAgreement, MatmulPersistentMatmulAndF8) {
  auto [a_gpu, a_cpu] = same_randn<ct::f16>({130, 96}, *gpu, 4);
  auto [b_gpu, b_cpu] = same_randn<ct::f16>({96, 200}, *gpu, 5);
  // Summation order differs (tensor cores against the interpreter's exact sums): bounded by f16 rounding.
  expect_agreement<ct::f16>({130, 200}, 2e-3, [&](ct::Tensor<ct::f16>& c, bool on_gpu) {
    ct::launch(one_block_per_tile(2 * 2), lib::matmul<ct::f16, ct::f16, 128, 128, 64>, c.partition({128, 128}),
               on_gpu ? a_gpu : a_cpu,
               on_gpu ? b_gpu : b_cpu)
        .sync();
  });
  expect_agreement<ct::f16>({130, 200}, 2e-3, [&](ct::Tensor<ct::f16>& c, bool on_gpu) {
    ct::launch(lib::persistent_matmul<ct::f16, ct::f16, 64, 64, 32, 8>, c.partition({64, 64}), on_gpu ? a_gpu : a_cpu,
               on_gpu ? b_gpu : b_cpu)
        .sync();
  });
  auto [p_gpu, p_cpu] = same_randn<ct::f8e4m3fn>({128, 256}, *gpu, 6);
  auto [q_gpu, q_cpu] = same_randn<ct::f8e4m3fn>({256, 96}, *gpu, 7);
  expect_agreement<ct::f16>({128, 96}, 2e-3, [&](ct::Tensor<ct::f16>& c, bool on_gpu) {
    ct::launch(one_block_per_tile(1), lib::matmul<ct::f8e4m3fn, ct::f16, 128, 128, 128>, c.partition({128, 128}),
               on_gpu ? p_gpu : p_cpu,
               on_gpu ? q_gpu : q_cpu)
        .sync();
  });
}

// Fast accumulation changes rounding inside the tensor cores only; the interpreter sums exactly.
TEST_F(InterpreterAgreement, Fp8FastAccumulation) {
  auto [a_gpu, a_cpu] = same_randn<ct::f8e4m3fn>({40, 30}, *gpu, 11);
  auto [w_gpu, w_cpu] = same_randn<ct::f8e4m3fn>({30, 50}, *gpu, 12);
  expect_agreement<float>({40, 50}, 1e-3, [&](ct::Tensor<float>& y, bool on_gpu) {
    ct::launch(cutile::test_support::vocabulary_kernels::fp8_matmul_fast_acc, y.partition({16, 16}),
               on_gpu ? a_gpu : a_cpu, on_gpu ? w_gpu : w_cpu)
        .sync();
  });
}

// A row permutation written through a gather-scatter view (Out::unchecked_store_scattered): every row of y
// is written once, so the two outputs agree bit for bit.
TEST_F(InterpreterAgreement, RowsScatteredThroughAGatherScatterView) {
  auto [x_gpu, x_cpu] = same_randn<float>({77, 50}, *gpu, 13);
  std::vector<int32_t> permutation(77);
  std::iota(permutation.begin(), permutation.end(), 0);
  std::shuffle(permutation.begin(), permutation.end(), std::mt19937(14));
  const auto to_gpu = ct::from_host<int32_t>(permutation, {77}, *gpu);
  const auto to_cpu = ct::from_host<int32_t>(permutation, {77}, ct::Device::cpu());
  expect_agreement<float>({77, 50}, 0.0, [&](ct::Tensor<float>& y, bool on_gpu) {
    ct::launch(cutile::test_support::vocabulary_kernels::scatter_rows, y.partition({16, 32}), on_gpu ? x_gpu : x_cpu,
               on_gpu ? to_gpu : to_cpu)
        .sync();
  });
}

TEST_F(InterpreterAgreement, CausalAttention) {
  auto [q_gpu, q_cpu] = same_randn<ct::f16>({4, 200, 64}, *gpu, 8);
  auto [k_gpu, k_cpu] = same_randn<ct::f16>({2, 200, 64}, *gpu, 9);
  auto [v_gpu, v_cpu] = same_randn<ct::f16>({2, 200, 64}, *gpu, 10);
  expect_agreement<ct::f16>({4, 200, 64}, 2e-3, [&](ct::Tensor<ct::f16>& o, bool on_gpu) {
    ct::launch(lib::fmha<ct::f16, 64, 64, 64, true>, o.partition({64, 1, 64}, {1, 0, 2}), on_gpu ? q_gpu : q_cpu,
               on_gpu ? k_gpu : k_cpu, on_gpu ? v_gpu : v_cpu, 0.125, 0, 2, 2)
        .sync();
  });
}

}  // namespace
