// The rope op and its backward on the CPU interpreter, through their launchers (op::run on the CPU target),
// in place on (B, H, S, D) q and k, against a float64 reference computed from the same rounded inputs: every
// dtype, full and partial rotation, head counts that are not powers of two, a cos/sin table per batch or
// shared, a table wider than R/2 or exactly R/2, and the layouts whose batch and position fold into rows (one
// launch: TileGym's transposed (B, S, H, D) buffers, contiguous with B = 1) or not (contiguous with B > 1: one
// launch per batch). The dims past the rotated ones must come back bit for bit. And the kernel with different
// query and key head tiles, which the launcher does not pick.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cutile/host/launch.hpp"
#include "cutile/op/run.hpp"
#include "positional/rope.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
namespace lib = cutile::kernels;

using cutile::test_support::to_double;

struct Case {
  int64_t batch, seq, q_heads, k_heads, head_dim, rope_dim, table_batch, table_width;
  bool transposed;  // q, k are (B, S, H, D) buffers seen as (B, H, S, D); else contiguous (B, H, S, D)
};

std::string name_of(const Case& c) {
  return "b" + std::to_string(c.batch) + "_s" + std::to_string(c.seq) + "_hq" + std::to_string(c.q_heads) + "_hk" +
         std::to_string(c.k_heads) + "_d" + std::to_string(c.head_dim) + "_r" + std::to_string(c.rope_dim) + "_cb" +
         std::to_string(c.table_batch) + "_w" + std::to_string(c.table_width) + (c.transposed ? "_bshd" : "_bhsd");
}

// Element (b, h, s, d) of a q or k buffer in the case's layout.
int64_t offset(const Case& c, int64_t heads, int64_t b, int64_t h, int64_t s, int64_t d) {
  return c.transposed ? ((b * c.seq + s) * heads + h) * c.head_dim + d : ((b * heads + h) * c.seq + s) * c.head_dim + d;
}

// The (B, H, S, D) view of a buffer.
template <ct::Element E>
ct::Tensor<E> heads_view(const ct::Tensor<E>& buffer, const Case& c, int64_t heads) {
  const int64_t d = c.head_dim;
  if (c.transposed) return buffer.as_strided({c.batch, heads, c.seq, d}, {c.seq * heads * d, d, heads * d, 1});
  return buffer.as_strided({c.batch, heads, c.seq, d}, {heads * c.seq * d, c.seq * d, d, 1});
}

// x rotated by the angles of cos/sin, by their opposites when `inverse`.
std::vector<double> reference(const std::vector<double>& x, const std::vector<double>& cos,
                              const std::vector<double>& sin, const Case& c, int64_t heads, bool inverse) {
  std::vector<double> y = x;
  const int64_t half = c.rope_dim / 2;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t s = 0; s < c.seq; ++s)
        for (int64_t i = 0; i < half; ++i) {
          const auto t = static_cast<size_t>(((b % c.table_batch) * c.seq + s) * c.table_width + i);
          const double sn = inverse ? -sin[t] : sin[t];
          const auto lo = static_cast<size_t>(offset(c, heads, b, h, s, i));
          const auto hi = static_cast<size_t>(offset(c, heads, b, h, s, i + half));
          y[lo] = x[lo] * cos[t] - x[hi] * sn;
          y[hi] = x[hi] * cos[t] + x[lo] * sn;
        }
  return y;
}

// Angles as a real table has them: positions grow, per batch shifted, and a row's halves repeat.
template <ct::Element E>
std::pair<ct::Tensor<E>, ct::Tensor<E>> tables(const Case& c) {
  std::vector<E> cos_values, sin_values;
  for (int64_t b = 0; b < c.table_batch; ++b)
    for (int64_t s = 0; s < c.seq; ++s)
      for (int64_t d = 0; d < c.table_width; ++d) {
        const double angle = (s + 3 * b + 1) * std::pow(100.0, -static_cast<double>(d % (c.rope_dim / 2)) / c.rope_dim);
        cos_values.push_back(ct::to_element<E>(std::cos(angle)));
        sin_values.push_back(ct::to_element<E>(std::sin(angle)));
      }
  const ct::Device cpu = ct::Device::cpu();
  return {ct::from_host<E>(cos_values, {c.table_batch, c.seq, c.table_width}, cpu),
          ct::from_host<E>(sin_values, {c.table_batch, c.seq, c.table_width}, cpu)};
}

// The computation is in E: a product and an fma per element, each rounded to E, of terms up to |x| ≈ 5
// (randn): about 6 unit roundoffs relative to 1 + |result|.
template <ct::Element E>
constexpr double tolerance = std::is_same_v<E, float> ? 2e-6 : std::is_same_v<E, ct::f16> ? 4e-3 : 3e-2;

template <ct::Element E>
void expect_rotated(const std::vector<double>& got, const std::vector<double>& input, const std::vector<double>& want,
                    const Case& c, const std::string& what) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (static_cast<int64_t>(i) % c.head_dim >= c.rope_dim)  // both layouts keep D innermost
      ASSERT_EQ(got[i], input[i]) << what << " pass-through element " << i << " of " << name_of(c);
    else
      ASSERT_NEAR(got[i], want[i], tolerance<E> * (1 + std::abs(want[i])))
          << what << " element " << i << " of " << name_of(c);
  }
}

class CpuRope : public ::testing::TestWithParam<Case> {};

// rope, then rope_backward on the gradients: each against the float64 rotation.
TEST_P(CpuRope, ForwardAndBackwardMatchFloat64) {
  const Case c = GetParam();
  const ct::Device cpu = ct::Device::cpu();
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu));
  auto check = [&]<ct::Element E>() {
    const std::string name(ct::element_traits<E>::name);
    const uint64_t seed = static_cast<uint64_t>(c.seq * 131 + c.head_dim);
    const int64_t q_size = c.batch * c.q_heads * c.seq * c.head_dim, k_size = c.batch * c.k_heads * c.seq * c.head_dim;
    const auto [cos, sin] = tables<E>(c);
    const std::vector<double> cv = to_double(cos), sv = to_double(sin);
    for (bool backward : {false, true}) {
      auto q_buffer = ct::randn<E>({q_size}, cpu, seed), k_buffer = ct::randn<E>({k_size}, cpu, seed + 1);
      const std::vector<double> q0 = to_double(q_buffer), k0 = to_double(k_buffer);
      auto q = heads_view(q_buffer, c, c.q_heads), k = heads_view(k_buffer, c, c.k_heads);
      ct::op::run(backward ? lib::rope_backward_op : lib::rope_op, target, {&q, &k, &cos, &sin}, {c.rope_dim});
      const std::string what = name + (backward ? " rope_backward " : " rope ");
      expect_rotated<E>(to_double(q_buffer), q0, reference(q0, cv, sv, c, c.q_heads, backward), c, what + "q");
      expect_rotated<E>(to_double(k_buffer), k0, reference(k0, cv, sv, c, c.k_heads, backward), c, what + "k");
    }
  };
  check.operator()<float>();
  check.operator()<ct::f16>();
  check.operator()<ct::bf16>();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CpuRope,
    ::testing::Values(Case{2, 7, 5, 3, 16, 16, 2, 16, true},    // full rotation, a table per batch
                      Case{3, 5, 4, 2, 24, 16, 1, 16, true},    // partial rotation, a shared table
                      Case{2, 6, 2, 1, 16, 16, 1, 8, true},     // a table of the R/2 distinct angles only
                      Case{1, 9, 2, 6, 40, 16, 1, 16, false},   // contiguous, B = 1; more key heads than query heads
                      Case{2, 3, 2, 6, 32, 32, 2, 32, false},   // contiguous, B > 1: one launch per batch
                      Case{3, 1, 3, 1, 32, 32, 3, 32, false},   // one position: rows fold
                      Case{1, 2, 1, 1, 264, 256, 1, 256, false}  // the widest half
                      ),
    [](const auto& p) { return name_of(p.param); });

// Query and key head tiles of 8 and 4, on the (B·S, H, R) views of transposed buffers.
TEST(CpuRopeKernel, DifferentQueryAndKeyHeadTilesMatchFloat64) {
  const Case c{2, 7, 5, 3, 16, 16, 2, 16, true};
  const ct::Device cpu = ct::Device::cpu();
  auto q = ct::randn<float>({c.batch * c.seq * c.q_heads * c.head_dim}, cpu, 71);
  auto k = ct::randn<float>({c.batch * c.seq * c.k_heads * c.head_dim}, cpu, 72);
  const auto [cos, sin] = tables<float>(c);
  const std::vector<double> q0 = to_double(q), k0 = to_double(k);
  auto rows = [&](const ct::Tensor<float>& buffer, int64_t heads) {
    return buffer.as_strided({c.batch * c.seq, heads, c.rope_dim}, {heads * c.head_dim, c.head_dim, 1});
  };
  ct::LaunchOptions options;
  options.hints.occupancy = 9;
  ct::launch(options, lib::rope<float, 8, 4, 8>, rows(q, c.q_heads).partition({1, 8, 16}),
             rows(k, c.k_heads).partition({1, 4, 16}), cos, sin, c.seq)
      .sync();
  expect_rotated<float>(to_double(q), q0, reference(q0, to_double(cos), to_double(sin), c, c.q_heads, false), c, "q");
  expect_rotated<float>(to_double(k), k0, reference(k0, to_double(cos), to_double(sin), c, c.k_heads, false), c, "k");
}

}  // namespace
