// The rope kernel (kernels/positional/rope.hpp) on the CPU interpreter, in place on q and k, against a
// float64 reference computed from the same rounded inputs: every dtype, full and partial rotation, head
// counts that are not powers of two, a cos/sin table per batch or shared, and the two layouts whose batch
// and position fold into rows (TileGym's transposed (B, S, H, D) buffers, and contiguous (B, H, S, D) with
// B = 1). The dims past the rotated ones must come back bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cutile/host/launch.hpp"
#include "positional/rope.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::to_double;

struct RopeCase {
  int64_t batch, seq, q_heads, k_heads, head_dim, rope_dim, table_batch;
  bool transposed;  // q, k are (B, S, H, D) buffers seen as (B, H, S, D); else contiguous (B, H, S, D)
};

std::string name_of(const RopeCase& c) {
  return "b" + std::to_string(c.batch) + "_s" + std::to_string(c.seq) + "_hq" + std::to_string(c.q_heads) +
         "_hk" + std::to_string(c.k_heads) + "_d" + std::to_string(c.head_dim) + "_r" +
         std::to_string(c.rope_dim) + "_cb" + std::to_string(c.table_batch) +
         (c.transposed ? "_bshd" : "_bhsd");
}

// Element (b, h, s, d) of a q or k buffer in the case's layout.
int64_t offset(const RopeCase& c, int64_t heads, int64_t b, int64_t h, int64_t s, int64_t d) {
  return c.transposed ? ((b * c.seq + s) * heads + h) * c.head_dim + d
                      : ((b * heads + h) * c.seq + s) * c.head_dim + d;
}

// The kernel's (B·S, H, R) view of a buffer.
template <ct::Element E>
ct::Tensor<E> rows_view(const ct::Tensor<E>& buffer, const RopeCase& c, int64_t heads) {
  if (c.transposed)
    return buffer.as_strided({c.batch * c.seq, heads, c.rope_dim}, {heads * c.head_dim, c.head_dim, 1});
  return buffer.as_strided({c.seq, heads, c.rope_dim}, {c.head_dim, c.seq * c.head_dim, 1});  // B = 1
}

std::vector<double> reference(const std::vector<double>& x, const std::vector<double>& cos,
                              const std::vector<double>& sin, const RopeCase& c, int64_t heads) {
  std::vector<double> y = x;
  const int64_t half = c.rope_dim / 2;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t s = 0; s < c.seq; ++s)
        for (int64_t i = 0; i < half; ++i) {
          const size_t t = static_cast<size_t>(((b % c.table_batch) * c.seq + s) * c.rope_dim + i);
          const auto lo = static_cast<size_t>(offset(c, heads, b, h, s, i));
          const auto hi = static_cast<size_t>(offset(c, heads, b, h, s, i + half));
          y[lo] = x[lo] * cos[t] - x[hi] * sin[t];
          y[hi] = x[hi] * cos[t] + x[lo] * sin[t];
        }
  return y;
}

template <ct::Element E, int64_t TILE_QH, int64_t TILE_KH, int64_t TILE_RD>
void check(const RopeCase& c, double tolerance) {
  const ct::Device cpu = ct::Device::cpu();
  const uint64_t seed = static_cast<uint64_t>(c.seq * 131 + c.head_dim);
  auto q = ct::randn<E>({c.batch * c.q_heads * c.seq * c.head_dim}, cpu, seed);
  auto k = ct::randn<E>({c.batch * c.k_heads * c.seq * c.head_dim}, cpu, seed + 1);
  // Angles as a real table has them: both halves of a row repeat, positions grow.
  std::vector<E> cos_values, sin_values;
  for (int64_t b = 0; b < c.table_batch; ++b)
    for (int64_t s = 0; s < c.seq; ++s)
      for (int64_t d = 0; d < c.rope_dim; ++d) {
        const double angle =
            (s + 3 * b + 1) * std::pow(100.0, -static_cast<double>(d % (c.rope_dim / 2)) / c.rope_dim);
        cos_values.push_back(ct::to_element<E>(std::cos(angle)));
        sin_values.push_back(ct::to_element<E>(std::sin(angle)));
      }
  auto cos = ct::from_host<E>(cos_values, {c.table_batch, c.seq, c.rope_dim}, cpu);
  auto sin = ct::from_host<E>(sin_values, {c.table_batch, c.seq, c.rope_dim}, cpu);
  const std::vector<double> q0 = to_double(q), k0 = to_double(k), cv = to_double(cos), sv = to_double(sin);

  ct::LaunchOptions options;
  options.hints.occupancy = 9;
  ct::launch(options, lib::rope<E, TILE_QH, TILE_KH, TILE_RD>,
             rows_view(q, c, c.q_heads).partition({1, TILE_QH, 2 * TILE_RD}),
             rows_view(k, c, c.k_heads).partition({1, TILE_KH, 2 * TILE_RD}), cos, sin, c.seq)
      .sync();

  for (auto [got, input, heads, what] :
       {std::tuple{to_double(q), q0, c.q_heads, "q"}, {to_double(k), k0, c.k_heads, "k"}}) {
    const std::vector<double> want = reference(input, cv, sv, c, heads);
    for (size_t i = 0; i < want.size(); ++i) {
      const int64_t d = static_cast<int64_t>(i) % c.head_dim;  // both layouts keep D innermost
      if (d >= c.rope_dim)
        ASSERT_EQ(got[i], input[i]) << what << " pass-through element " << i << " of " << name_of(c);
      else
        ASSERT_NEAR(got[i], want[i], tolerance * (1 + std::abs(want[i])))
            << what << " element " << i << " of " << name_of(c);
    }
  }
}

template <class E>
class CpuRope : public ::testing::Test {};
using Elements = ::testing::Types<float, ct::f16, ct::bf16>;
TYPED_TEST_SUITE(CpuRope, Elements);

// The kernel computes in E: a product and an fma per element, each rounded to E, of terms up to |x| ≈ 5
// (randn): about 6 unit roundoffs relative to 1 + |result|.
template <class E>
constexpr double tolerance_of() {
  if constexpr (std::is_same_v<E, float>) return 2e-6;
  if constexpr (std::is_same_v<E, ct::f16>) return 4e-3;
  return 3e-2;
}

TYPED_TEST(CpuRope, FullRotationTransposedBuffersPerBatchTables) {
  check<TypeParam, 8, 4, 8>({2, 7, 5, 3, 16, 16, 2, true}, tolerance_of<TypeParam>());
}

TYPED_TEST(CpuRope, PartialRotationSharedTable) {
  check<TypeParam, 4, 4, 4>({3, 5, 4, 2, 12, 8, 1, true}, tolerance_of<TypeParam>());
}

TYPED_TEST(CpuRope, ContiguousSingleBatchMoreKeyHeadsThanQueryHeads) {
  check<TypeParam, 2, 8, 2>({1, 9, 2, 6, 6, 4, 1, false}, tolerance_of<TypeParam>());
}

TEST(CpuRope, OneHeadOneRowWidestHalf) {
  check<float, 1, 1, 32>({1, 1, 1, 1, 70, 64, 1, false}, 2e-6);
}

}  // namespace
