// The dropout ops on the CPU interpreter, through their launchers (op::run on the CPU target): the kept
// elements are exactly those of a host model of TileGym's hash with its seed mixing, scaled exactly as
// TileGym's constants are rounded, for every dtype, ragged lengths, several seeds (negative, past 2^32) and
// probabilities, out of place and in place; and the probabilities the description refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "cutile/op/run.hpp"
#include "elementwise/dropout.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

// TileGym's `_mix_seed` and mask on the host: int32 arithmetic done in uint32 (wrapping), shifts right
// arithmetic.
bool keep(int64_t i, int64_t seed, float p) {
  const uint32_t mixed = static_cast<uint32_t>(static_cast<uint64_t>(seed)) * 2654435761u;
  const uint32_t combined = static_cast<uint32_t>(i) * 1103515245u + mixed;
  auto shr = [](uint32_t v, int s) { return static_cast<uint32_t>(static_cast<int32_t>(v) >> s); };
  uint32_t h = combined ^ shr(combined, 16);
  h ^= h << 8;
  h ^= shr(h, 4);
  return static_cast<float>(static_cast<int32_t>(h & 0x7fffffffu)) / 2147483648.0f > p;
}

template <ct::Element E>
ct::Tensor<E> random_vector(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.01, 4);
  std::vector<E> values(static_cast<size_t>(n));
  for (E& v : values) v = ct::to_element<E>(uniform(rng));
  return ct::from_host<E>(values, {n}, ct::Device::cpu());
}

template <ct::Element E>
void expect_dropout(const ct::Tensor<E>& y, const std::vector<E>& x, int64_t seed, double p, const std::string& what) {
  const std::vector<E> got = y.to_host();
  const double scale = ct::from_element(ct::to_element<E>(p >= 1 ? 0.0 : 1.0 / (1.0 - p)));
  int64_t kept = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const bool k = keep(static_cast<int64_t>(i), seed, static_cast<float>(p));
    kept += k;
    // The product is rounded once to E, as the kernel's multiply in E is.
    const double want = k ? ct::from_element(ct::to_element<E>(ct::from_element(x[i]) * scale)) : 0.0;
    ASSERT_EQ(ct::from_element(got[i]), want) << what << " element " << i;
  }
  if (p > 0 && p < 1 && x.size() > 2000) {
    const double zero_ratio = 1.0 - static_cast<double>(kept) / static_cast<double>(x.size());
    EXPECT_NEAR(zero_ratio, p, 0.04) << what;
  }
}

ct::op::Target cpu_target() { return ct::op::Target::on(ct::Stream::default_stream(ct::Device::cpu())); }

template <class T>
class CpuDropout : public ::testing::Test {};
using Elements = ::testing::Types<float, ct::f16, ct::bf16>;
TYPED_TEST_SUITE(CpuDropout, Elements);

TYPED_TEST(CpuDropout, KeepsTileGymsMaskExactly) {
  using E = TypeParam;
  ct::op::Target target = cpu_target();
  for (int64_t n : {int64_t{1}, int64_t{1000}, int64_t{1024}, int64_t{5000}}) {
    for (auto [seed, p] : {std::pair<int64_t, double>{0, 0.5},
                           {12345, 0.2},
                           {-5, 0.8},
                           {(int64_t{1} << 40) + 3, 0.5},
                           {7, 0.0},
                           {7, 1.0}}) {
      auto x = random_vector<E>(n, static_cast<unsigned>(n));
      const std::vector<E> hx = x.to_host();
      const std::string what = "n " + std::to_string(n) + " seed " + std::to_string(seed) + " p " + std::to_string(p);
      auto y = ct::empty<E>({n}, ct::Device::cpu());
      ct::op::run(lib::dropout_op, target, {&y, &x}, {seed, p});
      expect_dropout(y, hx, seed, p, what);
      ct::op::run(lib::dropout_inplace_op, target, {&x}, {seed, p});
      expect_dropout(x, hx, seed, p, what + " in place");
    }
  }
}

TEST(CpuDropout, ProbabilitiesOutsideZeroToOneAreRefused) {
  ct::op::Target target = cpu_target();
  auto x = random_vector<float>(8, 1);
  auto y = ct::empty<float>({8}, ct::Device::cpu());
  for (double p : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    try {
      ct::op::run(lib::dropout_op, target, {&y, &x}, {int64_t{1}, p});
      ADD_FAILURE() << "p " << p << " was taken";
    } catch (const ct::op::OpError& e) {
      EXPECT_EQ(e.problem(), ct::op::Problem::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find("it must satisfy finite(p) && p >= 0 && p <= 1"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
