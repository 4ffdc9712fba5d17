// The activation kernels (kernels/activation) on the CPU interpreter, every dtype and tile variant, at
// ragged sizes and through strided views, against float64 references of the same formulas computed here
// from the same (rounded) inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "activation/geglu.hpp"
#include "activation/gelu.hpp"
#include "activation/relu.hpp"
#include "activation/silu_and_mul.hpp"
#include "activation/swiglu.hpp"
#include "cutile/host/launch.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using lib::GeluApprox;

using cutile::test_support::to_double;

/// |out − ref| ≤ abs + rel·|ref| everywhere, for the rounding of E (and f32's approximate division).
template <ct::Element E>
void expect_close(const std::vector<double>& out, const std::vector<double>& ref, const std::string& what) {
  const double rel = std::is_same_v<E, float> ? 1e-5 : std::is_same_v<E, ct::f16> ? 2e-3 : 1.6e-2;
  const double abs = std::is_same_v<E, float> ? 1e-6 : std::is_same_v<E, ct::f16> ? 1e-4 : 1e-3;
  ASSERT_EQ(out.size(), ref.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < ref.size() && bad < 5; ++i)
    if (!(std::abs(out[i] - ref[i]) <= abs + rel * std::abs(ref[i]))) {
      ADD_FAILURE() << what << " (" << ct::element_traits<E>::name << ") at " << i << ": " << out[i] << " vs "
                    << ref[i];
      ++bad;
    }
}

/// For a result computed in E (not only rounded to it): |out − ref| ≤ 4 units of E's rounding (2^-11
/// f16, 2^-8 bf16) of |scale| + |ref|. The gelu forward rounds every step to E, and the error of
/// ½x·(1 + t) is t's few roundings scaled by ½|x|, also where the result is near zero (x ≪ 0).
template <ct::Element E>
void expect_close_computed_in(const std::vector<double>& out, const std::vector<double>& ref,
                              const std::vector<double>& scale, const std::string& what) {
  if constexpr (std::is_same_v<E, float>) return expect_close<E>(out, ref, what);
  const double unit = std::is_same_v<E, ct::f16> ? 0x1p-11 : 0x1p-8;
  ASSERT_EQ(out.size(), ref.size()) << what;
  int bad = 0;
  for (size_t i = 0; i < ref.size() && bad < 5; ++i)
    if (!(std::abs(out[i] - ref[i]) <= 4 * unit * (std::abs(scale[i]) + std::abs(ref[i])))) {
      ADD_FAILURE() << what << " (" << ct::element_traits<E>::name << ") at " << i << ": " << out[i] << " vs "
                    << ref[i];
      ++bad;
    }
}

// ---- float64 references of the kernels' formulas

double sigmoid(double v) {
  return 1.0 / (1.0 + std::exp(-v));
}

double gelu_tanh_of(GeluApprox a, double x) {
  const double u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
  return a == GeluApprox::tanh ? std::tanh(u) : 2.0 * sigmoid(2.0 * u) - 1.0;
}
double gelu(GeluApprox a, double x) {
  return 0.5 * x * (1.0 + gelu_tanh_of(a, x));
}
double gelu_grad(GeluApprox a, double x) {
  const double t = gelu_tanh_of(a, x);
  if (a == GeluApprox::tanh)
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * 0.7978845608028654 * (1.0 + 3.0 * 0.044715 * x * x);
  return 0.5 * (1.0 + t) + x * 0.3989422804014327 * std::exp(-0.5 * x * x);
}
double silu(double a) {
  return a * sigmoid(a);
}
double silu_grad(double a) {
  return sigmoid(a) * (1.0 + a * (1.0 - sigmoid(a)));
}

template <ct::Element E>
double round_to(double v) {
  return ct::from_element(ct::to_element<E>(v));
}

std::vector<double> map(const std::vector<double>& x, const std::function<double(double)>& f) {
  std::vector<double> y;
  for (double v : x) y.push_back(f(v));
  return y;
}

const ct::Device cpu = ct::Device::cpu();

// ---- relu, gelu: flattened vectors, ragged lengths, a strided input

template <ct::Element E, int64_t TILE>
void check_relu(int64_t n) {
  auto x = ct::randn<E>({n}, cpu, 1);
  auto y = ct::empty<E>({n}, cpu);
  ct::launch(lib::relu<E, TILE>, y.partition({TILE}), x).sync();
  expect_close<E>(to_double(y), map(to_double(x), [](double v) { return std::max(v, 0.0); }),
                  "relu n=" + std::to_string(n));
}

TEST(ActivationInterp, ReluEveryDtypeRagged) {
  for (int64_t n : {1, 1000, 2049}) {
    check_relu<float, 1024>(n);
    check_relu<ct::f16, 1024>(n);
    check_relu<ct::bf16, 1024>(n);
    check_relu<float, 64>(n);
  }
}

template <ct::Element E, GeluApprox A, int64_t TILE>
void check_gelu(int64_t n) {
  const std::string what =
      std::string("gelu ") + (A == GeluApprox::tanh ? "tanh" : "none") + " n=" + std::to_string(n);
  // Every other element of a 2n buffer: a strided input.
  auto buffer = ct::randn<E>({2 * n}, cpu, 2);
  auto x = buffer.as_strided({n}, {2});
  auto y = ct::empty<E>({n}, cpu);
  ct::launch(lib::gelu<E, A, TILE>, y.partition({TILE}), x).sync();
  const std::vector<double> xs = to_double(x);
  expect_close_computed_in<E>(to_double(y), map(xs, [](double v) { return gelu(A, v); }), xs, what);

  auto dy = ct::randn<E>({n}, cpu, 3);
  auto dx = ct::empty<E>({n}, cpu);
  ct::launch(lib::gelu_backward<E, A, TILE>, dx.partition({TILE}), dy, x).sync();
  const std::vector<double> dys = to_double(dy);
  std::vector<double> ref;
  for (size_t i = 0; i < xs.size(); ++i) ref.push_back(dys[i] * gelu_grad(A, xs[i]));
  expect_close<E>(to_double(dx), ref, what + " backward");
}

TEST(ActivationInterp, GeluBothFormsEveryDtypeRagged) {
  for (int64_t n : {3, 1000, 5000}) {
    check_gelu<float, GeluApprox::none, 1024>(n);
    check_gelu<float, GeluApprox::tanh, 1024>(n);
    check_gelu<ct::f16, GeluApprox::none, 1024>(n);
    check_gelu<ct::f16, GeluApprox::tanh, 1024>(n);
    check_gelu<ct::bf16, GeluApprox::none, 1024>(n);
    check_gelu<ct::bf16, GeluApprox::tanh, 1024>(n);
  }
  check_gelu<float, GeluApprox::none, 4096>(5000);
  check_gelu<ct::bf16, GeluApprox::tanh, 4096>(9000);
}

// ---- the gated ops: x (M, 2H) read as its halves; gradients into (M, 2, H) views of dx

template <ct::Element E>
struct Gated {
  int64_t m, h;
  ct::Tensor<E> x;  // (m, 2h), rows padded to 2h + 3 elements: not contiguous
  ct::Tensor<E> a, b, dy;
  std::vector<double> av, bv, dyv;

  Gated(int64_t rows, int64_t half, uint64_t seed)
      : m(rows),
        h(half),
        x(ct::randn<E>({rows, 2 * half + 3}, cpu, seed).as_strided({rows, 2 * half}, {2 * half + 3, 1})),
        a(x.as_strided({rows, half}, {2 * half + 3, 1})),
        b(x.as_strided({rows, half}, {2 * half + 3, 1}, half)),
        dy(ct::randn<E>({rows, half}, cpu, seed + 1)),
        av(to_double(a)),
        bv(to_double(b)),
        dyv(to_double(dy)) {}

  ct::Tensor<E> pairs(const ct::Tensor<E>& dx) const { return dx.as_strided({m, 2, h}, {2 * h, h, 1}); }

  /// dx (m, 2h) row-major against [ga | gb] per row.
  std::vector<double> cat(const std::vector<double>& ga, const std::vector<double>& gb) const {
    std::vector<double> out;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < h; ++c) out.push_back(ga[static_cast<size_t>(r * h + c)]);
      for (int64_t c = 0; c < h; ++c) out.push_back(gb[static_cast<size_t>(r * h + c)]);
    }
    return out;
  }
};

template <ct::Element E, GeluApprox A, int64_t BM, int64_t BN>
void check_geglu(int64_t m, int64_t n) {
  const std::string what = std::string("geglu ") + (A == GeluApprox::tanh ? "tanh" : "none") + " " +
                           std::to_string(m) + "x" + std::to_string(n) + " tile " + std::to_string(BM) + "x" +
                           std::to_string(BN);
  Gated<E> g(m, n, 4);
  auto y = ct::empty<E>({m, n}, cpu);
  ct::launch(lib::geglu<E, A, BM, BN>, y.partition({BM, BN}), g.a, g.b).sync();
  std::vector<double> ref, ga, gb;
  for (size_t i = 0; i < g.av.size(); ++i) {
    ref.push_back(g.av[i] * gelu(A, g.bv[i]));
    ga.push_back(g.dyv[i] * gelu(A, g.bv[i]));
    gb.push_back(g.dyv[i] * g.av[i] * gelu_grad(A, g.bv[i]));
  }
  expect_close<E>(to_double(y), ref, what);

  auto dx = ct::empty<E>({m, 2 * n}, cpu);
  ct::launch(lib::geglu_backward<E, A, BM, BN>, g.pairs(dx).partition({BM, 2, BN}), g.dy, g.a, g.b).sync();
  expect_close<E>(to_double(dx), g.cat(ga, gb), what + " backward");
}

TEST(ActivationInterp, GegluEveryTileFormAndDtypeRagged) {
  check_geglu<float, GeluApprox::none, 64, 16>(37, 5);
  check_geglu<float, GeluApprox::tanh, 16, 64>(20, 33);
  check_geglu<ct::f16, GeluApprox::none, 4, 256>(9, 200);
  check_geglu<ct::f16, GeluApprox::tanh, 1, 1024>(2, 1500);
  check_geglu<ct::bf16, GeluApprox::none, 16, 64>(17, 64);
  check_geglu<ct::bf16, GeluApprox::tanh, 64, 16>(1, 2);
}

template <ct::Element E, int64_t TILE>
void check_silu_and_mul(int64_t m, int64_t h) {
  const std::string what =
      "silu_and_mul " + std::to_string(m) + "x" + std::to_string(h) + " tile " + std::to_string(TILE);
  Gated<E> g(m, h, 5);
  auto y = ct::empty<E>({m, h}, cpu);
  ct::launch(lib::silu_and_mul<E, TILE>, y.partition({1, TILE}), g.x).sync();
  std::vector<double> ref, ga, gb;
  for (size_t i = 0; i < g.av.size(); ++i) {
    ref.push_back(silu(g.av[i]) * g.bv[i]);
    ga.push_back(g.dyv[i] * g.bv[i] * silu_grad(g.av[i]));
    gb.push_back(g.dyv[i] * silu(g.av[i]));
  }
  expect_close<E>(to_double(y), ref, what);

  auto dx = ct::empty<E>({m, 2 * h}, cpu);
  ct::launch(lib::silu_and_mul_backward<E, TILE>, g.pairs(dx).partition({1, 2, TILE}), g.dy, g.x).sync();
  expect_close<E>(to_double(dx), g.cat(ga, gb), what + " backward");
}

TEST(ActivationInterp, SiluAndMulEveryDtypeRaggedAndSplitRows) {
  check_silu_and_mul<float, 128>(7, 100);
  check_silu_and_mul<ct::f16, 128>(7, 100);
  check_silu_and_mul<ct::bf16, 128>(7, 100);
  check_silu_and_mul<float, 64>(3, 300);  // several tiles per row
  check_silu_and_mul<ct::f16, 1024>(2, 1024);
  check_silu_and_mul<float, 4096>(3, 4096);
}

template <ct::Element E, int64_t TILE>
void check_swiglu(int64_t m, int64_t n) {
  const std::string what =
      "swiglu " + std::to_string(m) + "x" + std::to_string(n) + " tile " + std::to_string(TILE);
  Gated<E> g(m, n, 6);  // a and b: the halves of one strided buffer
  auto c = ct::empty<E>({m, n}, cpu);
  ct::launch(lib::swiglu<E, TILE>, c.partition({1, TILE}), g.a, g.b).sync();
  std::vector<double> ref, ga, gb;
  for (size_t i = 0; i < g.av.size(); ++i) {
    ref.push_back(round_to<E>(silu(g.av[i])) * g.bv[i]);  // the product is taken in E
    ga.push_back(g.dyv[i] * g.bv[i] * silu_grad(g.av[i]));
    gb.push_back(g.dyv[i] * silu(g.av[i]));
  }
  expect_close<E>(to_double(c), ref, what);

  auto da = ct::empty<E>({m, n}, cpu), db = ct::empty<E>({m, n}, cpu);
  ct::launch(lib::swiglu_backward<E, TILE>, da.partition({1, TILE}), db.partition({1, TILE}), g.dy, g.a, g.b)
      .sync();
  expect_close<E>(to_double(da), ga, what + " backward da");
  expect_close<E>(to_double(db), gb, what + " backward db");
}

TEST(ActivationInterp, SwigluEveryDtypeRaggedAndSplitRows) {
  check_swiglu<float, 128>(7, 100);
  check_swiglu<ct::f16, 128>(7, 100);
  check_swiglu<ct::bf16, 128>(7, 100);
  check_swiglu<float, 64>(3, 300);
  check_swiglu<ct::bf16, 256>(5, 256);
}

}  // namespace
