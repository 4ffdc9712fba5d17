// The kernel library's softmax kernels (kernels/normalization/softmax.hpp) launched on Device::cpu() and
// checked against a float64 softmax: every kernel, every dtype, ragged and power-of-two rows, persistent
// grids smaller and larger than the row count, rows spanning many chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cutile/host/launch.hpp"
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

// The tile is the smallest power of two ≥ the row (16 at least), as the C ABI picks it.
template <class Body>
void with_row_tile(int64_t cols, Body body) {
  if (cols <= 16) return body(std::integral_constant<int64_t, 16>{});
  if (cols <= 128) return body(std::integral_constant<int64_t, 128>{});
  return body(std::integral_constant<int64_t, 1024>{});
}

TYPED_TEST(Softmax, MultiWaveMatchesFloat64) {
  using E = TypeParam;
  for (const auto [rows, cols] : kCases) {
    auto x = random_matrix<E>(rows, cols, 3);
    auto y = ct::empty<E>({rows, cols}, ct::Device::cpu());
    with_row_tile(cols, [&]<int64_t T>(std::integral_constant<int64_t, T>) {
      ct::launch(lib::softmax_row<E, T>, y.partition({1, T}), x).sync();
      expect_softmax(y, x, rows, cols, "softmax_row " + std::to_string(rows) + "x" + std::to_string(cols));
      if (cols != T) return;  // a row of exactly one tile, also with N baked in as the C ABI launches it
      auto z = ct::empty<E>({rows, cols}, ct::Device::cpu());
      ct::launch(lib::softmax_row<E, T, T>, z.partition({1, T}), x).sync();
      expect_softmax(z, x, rows, cols, "softmax_row, N baked in, " + std::to_string(rows) + "x" + std::to_string(cols));
    });
  }
}

// The persistent kernels under grids of one block, fewer blocks than rows, and more blocks than rows.
TYPED_TEST(Softmax, PersistentKernelsMatchFloat64ForAnyGrid) {
  using E = TypeParam;
  for (const auto [rows, cols] : kCases) {
    auto x = random_matrix<E>(rows, cols, 5);
    for (int64_t blocks : {int64_t{1}, int64_t{3}, rows + 2}) {
      ct::LaunchOptions options;
      options.grid = std::array<int64_t, 3>{blocks, 1, 1};
      const std::string shape =
          std::to_string(rows) + "x" + std::to_string(cols) + " grid " + std::to_string(blocks);
      with_row_tile(cols, [&]<int64_t T>(std::integral_constant<int64_t, T>) {
        auto y = ct::empty<E>({rows, cols}, ct::Device::cpu());
        ct::launch(options, lib::softmax_gather<E, T>, y.partition({1, T}), x).sync();
        expect_softmax(y, x, rows, cols, "softmax_gather " + shape);
        if (cols == T) {
          auto exact = ct::empty<E>({rows, cols}, ct::Device::cpu());
          ct::launch(options, lib::softmax_gather<E, T, T>, exact.partition({1, T}), x).sync();
          expect_softmax(exact, x, rows, cols, "softmax_gather, N baked in, " + shape);
        }
        auto z = ct::empty<E>({rows, cols}, ct::Device::cpu());
        ct::launch(options, lib::softmax_tma<E, T>, z.partition({1, T}), x).sync();
        expect_softmax(z, x, rows, cols, "softmax_tma " + shape);
      });
      // Chunks of 16 columns: up to 49 chunks a row, the last ragged.
      auto y = ct::empty<E>({rows, cols}, ct::Device::cpu());
      ct::launch(options, lib::softmax_chunked<E, 16>, y.partition({1, 16}), x).sync();
      expect_softmax(y, x, rows, cols, "softmax_chunked " + shape);
      // The chunk count as a constant: one chunk of the row's power-of-two tile, as the C ABI launches it.
      with_row_tile(cols, [&]<int64_t T>(std::integral_constant<int64_t, T>) {
        auto z = ct::empty<E>({rows, cols}, ct::Device::cpu());
        ct::launch(options, lib::softmax_chunked<E, T, 1>, z.partition({1, T}), x).sync();
        expect_softmax(z, x, rows, cols, "softmax_chunked one chunk " + shape);
      });
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
