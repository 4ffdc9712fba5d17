// The splitk_reduce op (kernels/attention/splitk_reduce.hpp) on Device::cpu(), through its launcher, and
// its dot body at the small splits tiles only a GPU below sm_90 picks, checked against a float64 merge of
// the same (rounded) inputs: every dtype, both bodies, ragged split counts and head dims (tiles of 1 to
// 128 columns, partial last tiles), B of one and of two, strided inputs, empty splits (lse -inf) and
// log-sum-exps far from zero. The launcher's body choice by target is checked on traced modules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>

#include "attention/splitk_reduce.hpp"
#include "cutile/host/launch.hpp"
#include "cutile/ir/printer.hpp"
#include "cutile/op/configuration.hpp"
#include "cutile/op/registry.hpp"
#include "cutile/op/run.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;
using cutile::test_support::to_double;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct Case {
  int64_t b, h, k, d;
};

// The analysis' tolerances (TileGym's 1e-2 for f16 and bf16; 2e-3 for f32).
template <ct::Element E>
double tolerance() {
  return std::is_same_v<E, float> ? 2e-3 : 1e-2;
}

// Inputs: the partials (B, H, K, D) and the log2-sum-exps (B, H, K), possibly strided, with some splits
// empty (-inf) and an offset that would overflow exp2 without the max.
template <ct::Element E>
struct Inputs {
  ct::Tensor<E> partials;
  ct::Tensor<float> lse;
  std::vector<double> hp, hl;  // row-major (B, H, K, D) and (B, H, K), as the kernel reads them
};

template <ct::Element E>
Inputs<E> make_inputs(const Case& c, unsigned seed, bool strided, bool empty_splits, double offset) {
  const ct::Device cpu = ct::Device::cpu();
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> spread(-6.0, 6.0);
  const size_t n = static_cast<size_t>(c.b * c.h * c.k * c.d), m = static_cast<size_t>(c.b * c.h * c.k);
  std::vector<E> p(n);
  for (E& v : p) v = ct::to_element<E>(normal(rng));
  std::vector<float> l(m);
  for (size_t i = 0; i < m; ++i) {
    const bool empty = empty_splits && c.k > 1 && i % static_cast<size_t>(c.k) == 1;  // split 1 of every head
    l[i] = empty ? static_cast<float>(kNegInf) : static_cast<float>(offset + spread(rng));
  }
  auto place = [&]() -> std::pair<ct::Tensor<E>, ct::Tensor<float>> {
    if (!strided) return {ct::from_host<E>(p, {c.b, c.h, c.k, c.d}, cpu), ct::from_host<float>(l, {c.b, c.h, c.k}, cpu)};
    // Partials stored (B, K, H, D) and viewed as (B, H, K, D); lse stored (B, H, K, 2), every other element.
    std::vector<E> stored(n);
    for (int64_t b = 0; b < c.b; ++b)
      for (int64_t h = 0; h < c.h; ++h)
        for (int64_t k = 0; k < c.k; ++k)
          for (int64_t d = 0; d < c.d; ++d)
            stored[static_cast<size_t>(((b * c.k + k) * c.h + h) * c.d + d)] =
                p[static_cast<size_t>(((b * c.h + h) * c.k + k) * c.d + d)];
    const ct::Tensor<E> base = ct::from_host<E>(stored, {c.b, c.k, c.h, c.d}, cpu);
    std::vector<float> l2(2 * m, 1e30f);  // the skipped elements would dominate the max if read
    for (size_t i = 0; i < m; ++i) l2[2 * i] = l[i];
    const ct::Tensor<float> lbase = ct::from_host<float>(l2, {c.b, c.h, c.k, 2}, cpu);
    return {base.as_strided({c.b, c.h, c.k, c.d}, {c.k * c.h * c.d, c.d, c.h * c.d, 1}),
            lbase.as_strided({c.b, c.h, c.k}, {c.h * c.k * 2, c.k * 2, 2})};
  };
  auto [partials, lse] = place();
  Inputs<E> in{partials, lse, {}, {}};
  for (const E& v : p) in.hp.push_back(ct::from_element(v));
  for (float v : l) in.hl.push_back(v);
  return in;
}

template <ct::Element E>
void expect_merge(const ct::Tensor<E>& out, const Inputs<E>& in, const Case& c, const std::string& what) {
  const std::vector<double> ho = to_double(out);
  const double tol = tolerance<E>();
  for (int64_t b = 0; b < c.b; ++b)
    for (int64_t h = 0; h < c.h; ++h) {
      const size_t row = static_cast<size_t>(b * c.h + h);
      double m = kNegInf;
      for (int64_t k = 0; k < c.k; ++k) m = std::max(m, in.hl[row * c.k + k]);
      double total = 0;
      std::vector<double> w(static_cast<size_t>(c.k));
      for (int64_t k = 0; k < c.k; ++k) total += w[k] = std::exp2(in.hl[row * c.k + k] - m);
      for (int64_t d = 0; d < c.d; ++d) {
        double want = 0;
        for (int64_t k = 0; k < c.k; ++k) want += w[k] * in.hp[(row * c.k + k) * c.d + d];
        want /= total;
        const double got = ho[row * c.d + d];
        ASSERT_LE(std::abs(got - want), tol + tol * std::abs(want))
            << what << ": b " << b << " h " << h << " d " << d << " got " << got << " want " << want;
      }
    }
}

template <ct::Element E>
void check_op(const Case& c, bool strided, bool empty_splits, double offset) {
  const Inputs<E> in = make_inputs<E>(c, static_cast<unsigned>(c.k * 131 + c.d), strided, empty_splits, offset);
  auto out = ct::empty<E>({c.b, c.h, c.d}, ct::Device::cpu());
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(ct::Device::cpu()));
  ct::op::run(lib::splitk_reduce_op, target, {&out, &in.partials, &in.lse});
  expect_merge(out, in, c,
               "B=" + std::to_string(c.b) + " H=" + std::to_string(c.h) + " K=" + std::to_string(c.k) +
                   " D=" + std::to_string(c.d) + (strided ? " strided" : "") + (empty_splits ? " empty splits" : "") +
                   " offset " + std::to_string(offset));
}

template <class E>
class SplitkReduce : public ::testing::Test {};
using Elements = ::testing::Types<float, ct::f16, ct::bf16>;
TYPED_TEST_SUITE(SplitkReduce, Elements);

// The interpreter takes the H200's threshold: K ≤ 8 (P < 16) is the sum body, K ≥ 9 the dot body.
// Head dims 5 (TILE_D 8), 64, 130 (two 128-column tiles, the second of 2) and 300 (three, the last of 44).
TYPED_TEST(SplitkReduce, BothBodiesRaggedShapes) {
  using E = TypeParam;
  for (const int64_t k : {1, 2, 3, 8, 9, 16, 33})
    for (const int64_t d : {5, 64, 130, 300}) check_op<E>({2, 3, k, d}, false, false, 0.0);
}

// B of one (the parity configurations' unit batch, baked into the views) and K of one (a unit split axis).
TYPED_TEST(SplitkReduce, UnitBatchAndUnitSplits) {
  using E = TypeParam;
  check_op<E>({1, 4, 8, 128}, false, false, 0.0);
  check_op<E>({1, 4, 16, 128}, false, false, 0.0);
  check_op<E>({1, 2, 1, 72}, false, false, 0.0);
  check_op<E>({3, 2, 1, 72}, false, false, 0.0);
}

// Strided partials and lse, empty splits (weight 0) and log-sum-exps near ±100 (2^100 overflows f32 unless
// the max is taken first).
TYPED_TEST(SplitkReduce, StridedEmptySplitsAndLargeLse) {
  using E = TypeParam;
  for (const int64_t k : {5, 20}) {
    check_op<E>({2, 3, k, 96}, true, false, 0.0);
    check_op<E>({2, 3, k, 96}, false, true, 100.0);
    check_op<E>({2, 3, k, 96}, true, true, -100.0);
  }
}

// The most splits the launcher takes (the splits tile of 256), and one more refused.
TEST(SplitkReduceLimits, LargestSplitsTileAndBeyond) {
  check_op<float>({1, 2, 256, 40}, false, true, 3.0);
  check_op<ct::bf16>({1, 1, 200, 130}, false, false, 0.0);
  const Inputs<float> in = make_inputs<float>({1, 1, 257, 8}, 1, false, false, 0.0);
  auto out = ct::empty<float>({1, 1, 8}, ct::Device::cpu());
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(ct::Device::cpu()));
  try {
    ct::op::run(lib::splitk_reduce_op, target, {&out, &in.partials, &in.lse});
    FAIL() << "K=257 was launched";
  } catch (const ct::op::OpError& e) {
    EXPECT_EQ(e.problem(), ct::op::Problem::unsupported_shape) << e.what();
  }
}

// The dot body at the splits tiles of 4 and 8, which the launcher picks below sm_90 (TileGym's threshold
// 4 there), launched directly on the interpreter.
TYPED_TEST(SplitkReduce, DotBodyAtSmallSplitTiles) {
  using E = TypeParam;
  for (const int64_t k : {3, 4, 7, 8}) {
    const Case c{2, 3, k, 100};
    const Inputs<E> in = make_inputs<E>(c, 9, false, true, 0.0);
    auto out = ct::empty<E>({c.b, c.h, c.d}, ct::Device::cpu());
    ct::LaunchOptions options;
    if (k <= 4)
      ct::launch(options, lib::splitk_reduce<E, 4, 128, true>, out.partition({1, 1, 128}), in.partials, in.lse).sync();
    else
      ct::launch(options, lib::splitk_reduce<E, 8, 128, true>, out.partition({1, 1, 128}), in.partials, in.lse).sync();
    expect_merge(out, in, c, "dot body K=" + std::to_string(k));
  }
}

// The launcher's body by target: an mma from 16 splits on sm_90 (TileGym's threshold 16) and from 4 on
// sm_80 (threshold 4); the entry optimisation hints are TileGym's occupancy 4, 2 on sm_80.
TEST(SplitkReduceLauncher, BodyByTargetThreshold) {
  auto module_text = [](const std::string& gpu, std::string_view config) {
    ct::op::Target target = ct::op::Target::trace_for(gpu, 132);
    ct::op::run_at(lib::splitk_reduce_op, config, target);
    EXPECT_EQ(target.traced().size(), 1u);
    return ct::ir::print_module(*target.traced()[0].module);
  };
  auto has_mma = [](const std::string& text) { return text.find("mmaf") != std::string::npos; };
  EXPECT_FALSE(has_mma(module_text("sm_90", "B=1 H=32 K=8 D=512 E=f16")));
  EXPECT_TRUE(has_mma(module_text("sm_90", "B=1 H=32 K=9 D=512 E=f16")));
  EXPECT_FALSE(has_mma(module_text("sm_80", "B=1 H=32 K=2 D=512 E=f16")));
  EXPECT_TRUE(has_mma(module_text("sm_80", "B=1 H=32 K=3 D=512 E=f16")));
  EXPECT_TRUE(has_mma(module_text("sm_80", "B=1 H=32 K=8 D=512 E=f16")));
  const std::string hints = module_text("sm_90", "B=1 H=32 K=16 D=512 E=f16");
  EXPECT_NE(hints.find("occupancy = 4"), std::string::npos) << hints.substr(0, 2000);
  EXPECT_NE(hints.find("sm_80 = {occupancy = 2}"), std::string::npos) << hints.substr(0, 2000);
}

}  // namespace
