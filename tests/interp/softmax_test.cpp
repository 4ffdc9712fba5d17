// The softmax op (kernels/normalization/softmax.hpp) on Device::cpu(), through its launcher, and its
// chunked kernel on its own, checked against a float64 softmax: every kernel, every dtype, ragged and
// power-of-two rows, persistent grids smaller and larger than the row count, rows spanning many chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "normalization/softmax.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

template <ct::Element E>
ct::Tensor<E> random_matrix(int64_t rows, int64_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-6, 6);
  std::vector<E> values(static_cast<size_t>(rows * cols));
  for (E& v : values) v = ct::to_element<E>(uniform(rng));
  return ct::from_host<E>(values, {rows, cols}, ct::Device::cpu());
}

using cutile::test_support::to_double;

std::vector<double> softmax_rows(const std::vector<double>& x, int64_t rows, int64_t cols) {
  std::vector<double> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const auto row = x.begin() + r * cols;
    const double m = *std::max_element(row, row + cols);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(row[c] - m);
    for (int64_t c = 0; c < cols; ++c) y[static_cast<size_t>(r * cols + c)] = std::exp(row[c] - m) / sum;
  }
  return y;
}

// Each element within rel·|ref| + abs; the result's rounding to E dominates the approximate exp and division.
template <ct::Element E>
void expect_softmax(const ct::Tensor<E>& y, const ct::Tensor<E>& x, int64_t rows, int64_t cols,
                    const std::string& what) {
  const double rel = std::is_same_v<E, float> ? 2e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  const std::vector<double> got = to_double(y), want = softmax_rows(to_double(x), rows, cols);
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (size_t i = 0; i < want.size() && bad < 5; ++i)
    if (!(std::abs(got[i] - want[i]) <= rel * std::abs(want[i]) + 1e-7)) {
      ADD_FAILURE() << what << " element " << i << ": got " << got[i] << ", want " << want[i];
      ++bad;
    }
}

struct Case {
  int64_t rows, cols;
};
const Case kCases[] = {{1, 1}, {7, 100}, {5, 128}, {33, 37}, {3, 777}};

template <class T>
class Softmax : public ::testing::Test {};
using Elements = ::testing::Types<float, ct::f16, ct::bf16>;
TYPED_TEST_SUITE(Softmax, Elements);

// The op as TileGym's flags pick its kernel (op::run on the CPU target: the launcher's tiles, N baked in
// where it bakes it, persistent grids sized by 1, 3 and 64 SMs), against float64.
TYPED_TEST(Softmax, EveryKernelOfTheOpMatchesFloat64) {
  using E = TypeParam;
  const ct::Stream stream = ct::Stream::default_stream(ct::Device::cpu());
  for (const auto [rows, cols] : kCases) {
    auto x = random_matrix<E>(rows, cols, 3);
    for (int sms : {1, 3, 64}) {
      ct::op::Target target = ct::op::Target::on(stream, sms);
      for (const auto [tma, chunked, multi_wave] : {std::array{false, false, false}, std::array{true, false, false},
                                                    std::array{false, true, false}, std::array{false, false, true}}) {
        auto y = ct::empty<E>({rows, cols}, ct::Device::cpu());
        ct::op::run(lib::softmax_op, target, {&y, &x}, {tma, chunked, multi_wave});
        expect_softmax(y, x, rows, cols,
                       std::to_string(rows) + "x" + std::to_string(cols) + " on " + std::to_string(sms) +
                           " SMs, use_tma " + std::to_string(tma) + " use_chunked " + std::to_string(chunked) +
                           " use_multi_wave " + std::to_string(multi_wave));
      }
    }
  }
}

// Rows wider than one tile holds take the chunked kernel (chunks of 8192) whatever the flags say.
TEST(Softmax, RowsBeyondOneTileTakeTheChunkedKernel) {
  const ct::Stream stream = ct::Stream::default_stream(ct::Device::cpu());
  ct::op::Target target = ct::op::Target::on(stream);
  auto x = random_matrix<float>(2, 20000, 9);
  auto y = ct::empty<float>({2, 20000}, ct::Device::cpu());
  ct::op::run(lib::softmax_op, target, {&y, &x}, {true, false, false});
  expect_softmax(y, x, 2, 20000, "2x20000 with use_tma");
}

// The chunked kernel on chunks of 16 columns (up to 49 a row, the last ragged), a tile the launcher never
// picks, under grids of one block, fewer blocks than rows and more.
TYPED_TEST(Softmax, ChunkedKernelOnManyChunksForAnyGrid) {
  using E = TypeParam;
  for (const auto [rows, cols] : kCases) {
    auto x = random_matrix<E>(rows, cols, 5);
    for (int64_t blocks : {int64_t{1}, int64_t{3}, rows + 2}) {
      ct::LaunchOptions options;
      options.grid = std::array<int64_t, 3>{blocks, 1, 1};
      auto y = ct::empty<E>({rows, cols}, ct::Device::cpu());
      ct::launch(options, lib::softmax_chunked<E, 16>, y.partition({1, 16}), x).sync();
      expect_softmax(y, x, rows, cols,
                     "softmax_chunked " + std::to_string(rows) + "x" + std::to_string(cols) + " grid " +
                         std::to_string(blocks));
    }
  }
}

// A row whose maximum sits in the last chunk, after chunks that would overflow exp without the max pass.
TEST(SoftmaxChunked, MaximumInTheLastChunk) {
  const int64_t rows = 2, cols = 50;
  std::vector<float> values(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    values[static_cast<size_t>(i)] = 80.0f + static_cast<float>(i % cols);
  auto x = ct::from_host<float>(values, {rows, cols}, ct::Device::cpu());
  auto y = ct::empty<float>({rows, cols}, ct::Device::cpu());
  ct::LaunchOptions options;
  options.grid = std::array<int64_t, 3>{1, 1, 1};
  ct::launch(options, lib::softmax_chunked<float, 16>, y.partition({1, 16}), x).sync();
  expect_softmax(y, x, rows, cols, "softmax_chunked large inputs");
}

}  // namespace
