// The kernel library's dropout kernels (kernels/elementwise/dropout.hpp) launched on Device::cpu():
// the kept elements are exactly those of a host model of TileGym's hash, scaled exactly as TileGym's
// constants are rounded, for every dtype, ragged lengths, several seeds and probabilities, in and out
// of place.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cutile/host/launch.hpp"
#include "elementwise/dropout.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

// TileGym's mask on the host: int32 arithmetic done in uint32 (wrapping), shifts right arithmetic.
bool keep(int64_t i, int32_t seed, float p) {
  const uint32_t combined = static_cast<uint32_t>(i) * 1103515245u + static_cast<uint32_t>(seed);
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
void expect_dropout(const ct::Tensor<E>& y, const std::vector<E>& x, int32_t seed, double p,
                    const std::string& what) {
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

template <class T>
class Dropout : public ::testing::Test {};
using Elements = ::testing::Types<float, ct::f16, ct::bf16>;
TYPED_TEST_SUITE(Dropout, Elements);

TYPED_TEST(Dropout, KeepsTileGymsMaskExactly) {
  using E = TypeParam;
  for (int64_t n : {int64_t{1}, int64_t{1000}, int64_t{1024}, int64_t{5000}}) {
    for (auto [seed, p] :
         {std::pair<int32_t, double>{-1640531535, 0.5}, {12345, 0.2}, {0, 0.8}, {7, 0.0}, {7, 1.0}}) {
      auto x = random_vector<E>(n, static_cast<unsigned>(n));
      const std::vector<E> hx = x.to_host();
      const std::string what =
          "n " + std::to_string(n) + " seed " + std::to_string(seed) + " p " + std::to_string(p);
      auto y = ct::empty<E>({n}, ct::Device::cpu());
      const double scale = p >= 1 ? 0.0 : 1.0 / (1.0 - p);
      ct::launch(lib::dropout<E, 1024>, y.partition({1024}), x, seed, p, scale).sync();
      expect_dropout(y, hx, seed, p, what);
      ct::launch(lib::dropout_inplace<E, 1024>, x.partition({1024}), seed, p, scale).sync();
      expect_dropout(x, hx, seed, p, what + " in place");
    }
  }
}

}  // namespace
