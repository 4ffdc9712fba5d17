// One launch configuration of a GEMM kernel (matmul, bmm): the output tile, the K step, the cluster and
// occupancy hints, and for a persistent kernel whether its stores are ordered; and what a launcher derives
// from it.
#pragma once

#include <cstdint>

#include "cutile/host/launch.hpp"

namespace cutile::kernels {

struct GemmTiles {
  int64_t bm, bn, bk;
  int ctas, occupancy;
  bool ordered_stores = false;

  /// TileGym's hints of the candidate: CTAs per cluster and occupancy.
  LaunchOptions options() const {
    LaunchOptions options;
    options.hints = {.num_ctas = ctas, .occupancy = occupancy};
    return options;
  }
  /// Output tiles of one (m, n) matrix.
  int64_t tiles(int64_t m, int64_t n) const { return ((m + bm - 1) / bm) * ((n + bn - 1) / bn); }
};

}  // namespace cutile::kernels
