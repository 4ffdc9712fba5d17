// The builder example kernels and the DSL kernels run on the interpreter at small and ragged sizes, against
// float64 references computed here from the same (rounded) inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "01_vector_add/vector_add.hpp"
#include "02_row_softmax/row_softmax.hpp"
#include "09_ir_builder/builder_kernels.hpp"
#include "cutile/detail/trace_kernel.hpp"
#include "support/dsl_control_kernels.hpp"
#include "support/host_tensor.hpp"

namespace {

using namespace cutile;
using test_support::expect_close;
using test_support::HostTensor;
using E = ir::ElementType;

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct Tolerance {
  double rel, abs;
};
Tolerance tolerance_of(E e) {
  switch (e) {
    case E::f16: return {2e-3, 1e-3};
    case E::bf16: return {2e-2, 1e-2};
    default: return {1e-5, 1e-6};
  }
}

double round_to(E e, double v) { return ir::bits_to_float(e, ir::float_to_bits(e, v)); }

std::vector<double> softmax_rows(const std::vector<double>& x, int64_t rows, int64_t cols) {
  std::vector<double> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double* in = &x[static_cast<size_t>(r * cols)];
    const double m = *std::max_element(in, in + cols);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(in[c] - m);
    for (int64_t c = 0; c < cols; ++c) y[static_cast<size_t>(r * cols + c)] = std::exp(in[c] - m) / sum;
  }
  return y;
}

void run(const ir::Module& m, std::vector<uint64_t> params, std::array<int64_t, 3> grid,
         std::vector<interp::MemoryRegion> regions, std::ostream* out = nullptr) {
  interp::run(m, m.functions().front()->name(), params, grid, regions, {.threads = 2, .out = out});
}

// ---- builder kernels

struct SizeCase {
  E element;
  int64_t n;
};

class BuilderVectorAdd : public ::testing::TestWithParam<SizeCase> {};

TEST_P(BuilderVectorAdd, MatchesReference) {
  const auto [e, n] = GetParam();
  std::mt19937 rng(7);
  HostTensor a(e, {n}), b(e, {n}), c(e, {n}, false);
  a.fill_random(rng, -4, 4);
  b.fill_random(rng, -4, 4);
  auto module = examples::vector_add_module(e, 128);
  run(*module, {a.address(), b.address(), c.address(), static_cast<uint64_t>(n)}, {cdiv(n, 128), 1, 1},
      {a.region("a", false), b.region("b", false), c.region("c")});
  std::vector<double> want(static_cast<size_t>(n));
  for (size_t k = 0; k < want.size(); ++k) want[k] = round_to(e, a.get(k) + b.get(k));
  expect_close(c.values(), want, 0, 0, "vector_add");  // one correctly rounded addition: exact
}

INSTANTIATE_TEST_SUITE_P(Sizes, BuilderVectorAdd,
                         ::testing::Values(SizeCase{E::f32, 1001}, SizeCase{E::f16, 1001}, SizeCase{E::bf16, 1001},
                                           SizeCase{E::f32, 128}, SizeCase{E::f32, 1}));

struct MatrixCase {
  E element;
  int64_t rows, cols;
};

class BuilderRowSoftmax : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(BuilderRowSoftmax, MatchesReference) {
  const auto [e, rows, cols] = GetParam();
  std::mt19937 rng(11);
  HostTensor x(e, {rows, cols}), y(e, {rows, cols}, false);
  x.fill_random(rng, -3, 3);
  auto module = examples::row_softmax_module(e, 1024);
  run(*module,
      {x.address(), y.address(), static_cast<uint64_t>(rows), static_cast<uint64_t>(cols), static_cast<uint64_t>(cols),
       static_cast<uint64_t>(cols)},
      {rows, 1, 1}, {x.region("x", false), y.region("y")});
  const Tolerance t = tolerance_of(e);
  expect_close(y.values(), softmax_rows(x.values(), rows, cols), t.rel, t.abs, "row_softmax");
}

INSTANTIATE_TEST_SUITE_P(Sizes, BuilderRowSoftmax,
                         ::testing::Values(MatrixCase{E::f32, 37, 100}, MatrixCase{E::f16, 37, 100},
                                           MatrixCase{E::bf16, 37, 100}, MatrixCase{E::f32, 5, 1024},
                                           MatrixCase{E::f32, 64, 777}));

struct GemmCase {
  E element;
  int64_t m, n, k;
};

class BuilderTiledGemm : public ::testing::TestWithParam<GemmCase> {};

TEST_P(BuilderTiledGemm, MatchesReference) {
  const auto [e, m, n, k] = GetParam();
  std::mt19937 rng(13);
  HostTensor a(e, {m, k}), b(e, {k, n}), c(e, {m, n}, false);
  a.fill_random(rng, -1, 1);
  b.fill_random(rng, -1, 1);
  constexpr int BM = 32, BN = 64, BK = 16;
  auto module = examples::tiled_gemm_module(e, BM, BN, BK);
  run(*module,
      {a.address(), b.address(), c.address(), static_cast<uint64_t>(m), static_cast<uint64_t>(n), static_cast<uint64_t>(k),
       static_cast<uint64_t>(k), static_cast<uint64_t>(n), static_cast<uint64_t>(n)},
      {cdiv(m, BM), cdiv(n, BN), 1}, {a.region("a", false), b.region("b", false), c.region("c")});
  const std::vector<double> av = a.values(), bv = b.values();
  std::vector<double> want(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        want[static_cast<size_t>(i * n + j)] += av[static_cast<size_t>(i * k + p)] * bv[static_cast<size_t>(p * n + j)];
  const Tolerance t = tolerance_of(e);
  expect_close(c.values(), want, t.rel, t.abs * 4, "tiled_gemm");
}

INSTANTIATE_TEST_SUITE_P(Sizes, BuilderTiledGemm,
                         ::testing::Values(GemmCase{E::f32, 100, 130, 70}, GemmCase{E::f16, 100, 130, 70},
                                           GemmCase{E::bf16, 33, 65, 17}, GemmCase{E::f32, 64, 64, 64}));

// ---- DSL kernels, traced with the facts the launch path computes for these tensors

template <class... P>
std::unique_ptr<ir::Module> trace(void (*kernel)(P...), std::vector<detail::ArrayFacts> facts) {
  return detail::trace_kernel(kernel, facts);
}

template <class T>
struct DslTypes : ::testing::Test {};
struct F32 {
  using type = float;
  static constexpr E element = E::f32;
};
struct F16 {
  using type = f16;
  static constexpr E element = E::f16;
};
struct BF16 {
  using type = bf16;
  static constexpr E element = E::bf16;
};
using Elements = ::testing::Types<F32, F16, BF16>;
TYPED_TEST_SUITE(DslTypes, Elements);

TYPED_TEST(DslTypes, VectorAddRaggedLength) {
  constexpr E e = TypeParam::element;
  std::mt19937 rng(17);
  for (int64_t n : {1001, 1024, 3}) {
    HostTensor a(e, {n}), b(e, {n}), c(e, {n}, false);
    a.fill_random(rng, -8, 8);
    b.fill_random(rng, -8, 8);
    auto module =
        trace(&examples::vector_add<typename TypeParam::type, 1024>, {c.facts(), a.facts(), b.facts()});
    std::vector<uint64_t> params;
    for (const HostTensor* t : {&c, &a, &b}) t->append_params(params);
    run(*module, params, {cdiv(n, 1024), 1, 1}, {c.region("c"), a.region("a", false), b.region("b", false)});
    std::vector<double> want(static_cast<size_t>(n));
    for (size_t k = 0; k < want.size(); ++k) want[k] = round_to(e, a.get(k) + b.get(k));
    expect_close(c.values(), want, 0, 0, "vector_add n=" + std::to_string(n));
  }
}

TYPED_TEST(DslTypes, RowSoftmaxRagged) {
  constexpr E e = TypeParam::element;
  std::mt19937 rng(19);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{37, 100}, {1, 4096}, {3, 777}}) {
    HostTensor x(e, {rows, cols}), y(e, {rows, cols}, false);
    x.fill_random(rng, -5, 5);
    auto module = trace(&examples::row_softmax<typename TypeParam::type, 4096>, {y.facts(), x.facts()});
    std::vector<uint64_t> params;
    y.append_params(params);
    x.append_params(params);
    run(*module, params, {rows, 1, 1}, {y.region("y"), x.region("x", false)});
    const Tolerance t = tolerance_of(e);
    expect_close(y.values(), softmax_rows(x.values(), rows, cols), t.rel, t.abs,
                 "row_softmax " + std::to_string(rows) + "x" + std::to_string(cols));
  }
}

// A large ragged softmax, checked on every 97th row (the reference is the slow part).
TEST(DslKernels, RowSoftmaxLargeRaggedSubsampled) {
  const int64_t rows = 1000, cols = 777;
  std::mt19937 rng(23);
  HostTensor x(E::f32, {rows, cols}), y(E::f32, {rows, cols}, false);
  x.fill_random(rng, -5, 5);
  auto module = trace(&examples::row_softmax<float, 1024>, {y.facts(), x.facts()});
  std::vector<uint64_t> params;
  y.append_params(params);
  x.append_params(params);
  run(*module, params, {rows, 1, 1}, {y.region("y"), x.region("x", false)});
  const std::vector<double> xv = x.values(), yv = y.values();
  for (int64_t r = 0; r < rows; r += 97) {
    const std::vector<double> row(xv.begin() + r * cols, xv.begin() + (r + 1) * cols);
    const std::vector<double> got(yv.begin() + r * cols, yv.begin() + (r + 1) * cols);
    expect_close(got, softmax_rows(row, 1, cols), 1e-5, 1e-7, "row " + std::to_string(r));
  }
}

namespace ck = test_support::control_kernels;

uint64_t f32_bits(float v) { return std::bit_cast<uint32_t>(v); }

TEST(DslControlKernels, ClampBelowLimit) {
  const int64_t n = 100;  // 7 tiles of 16, the last ragged
  std::mt19937 rng(29);
  HostTensor y(E::f32, {n}, false), x(E::f32, {n}), limit(E::i32, {1});
  x.fill_random(rng, -2, 2);
  limit.set(0, 4);
  auto module = trace(&ck::clamp_below_limit, {y.facts(), x.facts(), limit.facts(), {}});
  std::vector<uint64_t> params;
  for (const HostTensor* t : {&y, &x, &limit}) t->append_params(params);
  params.push_back(f32_bits(0.25f));
  run(*module, params, {cdiv(n, 16), 1, 1}, {y.region("y"), x.region("x", false), limit.region("limit", false)});
  std::vector<double> want(static_cast<size_t>(n));
  for (size_t k = 0; k < want.size(); ++k) want[k] = k / 16 < 4 ? std::max(x.get(k), 0.25) : 0.0;
  expect_close(y.values(), want, 0, 0, "clamp_below_limit");
}

TEST(DslControlKernels, ChunksWithoutState) {
  const int64_t rows = 5, cols = 50;  // ragged: the chunks past column 50 are neither read nor written
  std::mt19937 rng(37);
  HostTensor y(E::f32, {rows, cols}, false), x(E::f32, {rows, cols});
  x.fill_random(rng, -2, 2);
  auto module = trace(&ck::chunks_without_state, {y.facts(), x.facts()});
  std::vector<uint64_t> params;
  for (const HostTensor* t : {&y, &x}) t->append_params(params);
  run(*module, params, {rows, 1, 1}, {y.region("y"), x.region("x", false)});
  std::vector<double> want = x.values();
  for (double& v : want) v *= 2;
  expect_close(y.values(), want, 0, 0, "chunks_without_state");
}

TEST(DslControlKernels, OrderedPair) {
  const int64_t n = 40;
  std::mt19937 rng(31);
  for (int flip : {0, 1}) {
    HostTensor first(E::f32, {n}, false), second(E::f32, {n}, false), a(E::f32, {n}), b(E::f32, {n});
    a.fill_random(rng, -1, 1);
    b.fill_random(rng, -1, 1);
    auto module = trace(&ck::ordered_pair, {first.facts(), second.facts(), a.facts(), b.facts(), {}});
    std::vector<uint64_t> params;
    for (const HostTensor* t : {&first, &second, &a, &b}) t->append_params(params);
    params.push_back(static_cast<uint64_t>(flip));
    run(*module, params, {cdiv(n, 16), 1, 1},
        {first.region("first"), second.region("second"), a.region("a", false), b.region("b", false)});
    expect_close(first.values(), flip ? b.values() : a.values(), 0, 0, "first");
    expect_close(second.values(), flip ? a.values() : b.values(), 0, 0, "second");
  }
}

TEST(DslControlKernels, CheckedCopyPassesAndFails) {
  const int64_t n = 48;
  HostTensor y(E::f32, {n}, false), x(E::f32, {n});
  for (size_t k = 0; k < x.size(); ++k) x.set(k, 1.0 + static_cast<double>(k));
  auto module = trace(&ck::checked_copy, {y.facts(), x.facts(), {}});
  std::vector<uint64_t> params;
  y.append_params(params);
  x.append_params(params);
  params.push_back(2);
  run(*module, params, {3, 1, 1}, {y.region("y"), x.region("x", false)});
  expect_close(y.values(), x.values(), 0, 0, "checked_copy");

  x.set(20, -1.0);  // tile 1 is checked (1 < n = 2): its assert fails in block (1, 0, 0)
  try {
    run(*module, params, {3, 1, 1}, {y.region("y"), x.region("x", false)});
    ADD_FAILURE() << "expected a failed assert";
  } catch (const UserError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("x must be non-negative"), std::string::npos) << what;
    EXPECT_NE(what.find("tile block (1, 0, 0)"), std::string::npos) << what;
    EXPECT_NE(what.find("dsl_control_kernels.hpp:"), std::string::npos) << what;
  }
  params.back() = 0;  // n > 0 fails in every block; block 0 is reported
  try {
    run(*module, params, {3, 1, 1}, {y.region("y"), x.region("x", false)});
    ADD_FAILURE() << "expected a failed assert";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("n must be positive"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tile block (0, 0, 0)"), std::string::npos) << e.what();
  }
}

TEST(DslControlKernels, PrintValuesInBlockOrder) {
  const int64_t n = 64;
  HostTensor y(E::f32, {n}, false), x(E::f32, {n});
  for (size_t k = 0; k < x.size(); ++k) x.set(k, static_cast<double>(k) / 2);
  auto module = trace(&ck::print_values, {y.facts(), x.facts(), {}});
  std::vector<uint64_t> params;
  y.append_params(params);
  x.append_params(params);
  params.push_back(7);
  std::ostringstream out;
  run(*module, params, {4, 1, 1}, {y.region("y"), x.region("x", false)}, &out);
  std::string want;
  for (int b = 0; b < 4; ++b) {
    want += "block " + std::to_string(b) + " of n=7 (100%): [";
    for (int k = 0; k < 16; ++k) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%f", (b * 16 + k) / 2.0);
      want += (k ? ", " : "") + std::string(buf);
    }
    want += "]\n";
  }
  EXPECT_EQ(out.str(), want);
  expect_close(y.values(), x.values(), 0, 0, "print_values copy");
}

}  // namespace
