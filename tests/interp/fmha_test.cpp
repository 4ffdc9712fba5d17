// The fmha op on the CPU interpreter through its launcher: both head dims, causal and not, grouped-query
// heads, a key prefix before the queries (chunked prefill), ragged sequence lengths, against a float64
// attention of the same (rounded) inputs; at the launcher's policy and at the tuning space's other query tile.
#include <gtest/gtest.h>

#include <cmath>

#include "attention/fmha.hpp"
#include "cutile/op/run.hpp"
#include "support/tensor_values.hpp"

namespace {

namespace ct = cutile;
using cutile::test_support::to_double;

struct Case {
  int64_t b, h, s, g, l, d;
  bool causal;
};

template <ct::Element E>
void check(const Case& c, const ct::op::Choice& choice = {}) {
  const ct::Device cpu = ct::Device::cpu();
  auto q = ct::randn<E>({c.b, c.h, c.s, c.d}, cpu, 1), k = ct::randn<E>({c.b, c.g, c.l, c.d}, cpu, 2),
       v = ct::randn<E>({c.b, c.g, c.l, c.d}, cpu, 3);
  auto o = ct::empty<E>({c.b, c.h, c.s, c.d}, cpu);
  ct::op::Target target = ct::op::Target::on(ct::Stream::default_stream(cpu));
  target.force(&choice);
  ct::op::run(ct::kernels::fmha_op, target, {&o, &q, &k, &v}, {NAN, c.causal});
  const std::vector<double> hq = to_double(q), hk = to_double(k), hv = to_double(v), ho = to_double(o);
  const double scale = 1.0 / std::sqrt(static_cast<double>(c.d));
  const int64_t prefix = c.l - c.s;
  for (int64_t bi = 0; bi < c.b; ++bi)
    for (int64_t hi = 0; hi < c.h; ++hi) {
      const int64_t kv = hi / (c.h / c.g);
      for (int64_t i = 0; i < c.s; ++i) {
        std::vector<double> p(static_cast<size_t>(c.l));
        double top = -INFINITY, total = 0;
        for (int64_t j = 0; j < c.l; ++j) {
          if (c.causal && j > i + prefix) continue;
          double dot = 0;
          for (int64_t e = 0; e < c.d; ++e)
            dot += hq[static_cast<size_t>(((bi * c.h + hi) * c.s + i) * c.d + e)] *
                   hk[static_cast<size_t>(((bi * c.g + kv) * c.l + j) * c.d + e)];
          p[static_cast<size_t>(j)] = dot * scale;
          top = std::max(top, dot * scale);
        }
        for (int64_t j = 0; j < c.l; ++j) {
          const bool seen = !(c.causal && j > i + prefix);
          p[static_cast<size_t>(j)] = seen ? std::exp(p[static_cast<size_t>(j)] - top) : 0.0;
          total += p[static_cast<size_t>(j)];
        }
        for (int64_t e = 0; e < c.d; ++e) {
          double want = 0;
          for (int64_t j = 0; j < c.l; ++j)
            want += p[static_cast<size_t>(j)] / total * hv[static_cast<size_t>(((bi * c.g + kv) * c.l + j) * c.d + e)];
          // p is rounded to E before its product with v, as the kernel (and TileGym's) does.
          const double tol = std::is_same_v<E, ct::f16> ? 4e-3 : 3e-2;
          ASSERT_NEAR(ho[static_cast<size_t>(((bi * c.h + hi) * c.s + i) * c.d + e)], want, tol)
              << "b " << bi << " h " << hi << " row " << i << " dim " << e;
        }
      }
    }
}

TEST(CpuFmha, MatchesFloat64) {
  check<ct::f16>({1, 2, 37, 2, 37, 64, false});
  check<ct::f16>({2, 4, 100, 2, 130, 64, true});
  check<ct::bf16>({1, 2, 20, 1, 20, 128, true});
}

TEST(CpuFmha, MatchesFloat64WithTheTuningSpacesSmallerQueryTile) {
  const ct::op::Choice smaller{{{"TILE_M", 128}, {"occupancy", 2}, {"num_ctas", 2}}};
  check<ct::f16>({1, 2, 300, 1, 300, 64, true}, smaller);
  check<ct::bf16>({1, 2, 130, 2, 200, 128, false}, smaller);
}

}  // namespace
