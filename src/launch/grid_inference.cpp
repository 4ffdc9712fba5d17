// The launch grid from the output partitions, LaunchOptions::grid and the OutTiles schedules, with the
// checks that they agree.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cutile/error.hpp"
#include "launch/launch_path.hpp"

namespace cutile::detail {
namespace {

// The tiles per axis of an output partition, padded with 1 to three axes.
std::array<int64_t, 3> tile_grid(const TensorArgView& t) {
  std::array<int64_t, 3> g = {1, 1, 1};
  for (size_t d = 0; d < t.shape.size(); ++d) {
    const int64_t extent = t.shape[static_cast<size_t>(t.tile_order[d])];  // tile dim d walks it
    g[d] = (extent + t.tile_shape[d] - 1) / t.tile_shape[d];
  }
  return g;
}

}  // namespace

// `default_blocks`: how many blocks a kernel whose outputs are all OutTiles gets (the device's SMs).
std::array<int64_t, 3> infer_grid(std::span<const LaunchArg> args, const LaunchOptions& options,
                                  int64_t default_blocks) {
  std::optional<std::array<int64_t, 3>> grid;
  size_t decided_by = 0;
  int64_t most_tiles = 0;                                           // of any OutTiles argument
  std::vector<std::pair<size_t, std::array<int64_t, 3>>> prefixes;  // prefix outputs and their tile grids
  for (size_t i = 0; i < args.size(); ++i) {
    if (!is_output(args[i].kind)) continue;
    if (args[i].kind == ArgKind::output_tiles_list) {  // the tiles of all members, numbered as one
      int64_t tiles = 0;
      for (const TensorArgView& m : args[i].members) {
        const std::array<int64_t, 3> g = tile_grid(m);
        tiles += g[0] * g[1] * g[2];
      }
      most_tiles = std::max(most_tiles, tiles);
      continue;
    }
    const TensorArgView& t = *args[i].tensor;
    const std::array<int64_t, 3> g = tile_grid(t);
    if (args[i].kind == ArgKind::output_tiles) {
      most_tiles = std::max(most_tiles, g[0] * g[1] * g[2]);
      continue;
    }
    if (t.prefix_cover) {  // bounds the grid, checked below; never sets it
      prefixes.emplace_back(i, g);
      continue;
    }
    if (grid && *grid != g)
      throw UserError(
          "output partitions disagree on the launch grid: " + arg_name(decided_by, args[decided_by]) +
          " gives " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}) + ", " + arg_name(i, args[i]) +
          " gives " + dims_text({g[0], g[1], g[2]}));
    grid = g;
    decided_by = i;
  }
  if (options.grid) {
    if (grid && *grid != *options.grid)
      throw UserError(
          "LaunchOptions::grid " + dims_text({(*options.grid)[0], (*options.grid)[1], (*options.grid)[2]}) +
          " differs from the output partitions' grid " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}));
    grid = options.grid;
  }
  const bool scheduled = std::any_of(args.begin(), args.end(), [](const LaunchArg& a) {
    return a.kind == ArgKind::output_tiles || a.kind == ArgKind::output_tiles_list;
  });
  if (!grid && scheduled)
    grid = std::array<int64_t, 3>{std::clamp<int64_t>(most_tiles, 1, default_blocks), 1, 1};
  if (!grid && !prefixes.empty())
    throw UserError(
        "the kernel's output partitions are prefixes, which bound the launch grid but do not set it: pass "
        "LaunchOptions::grid");
  if (!grid)
    throw UserError(
        "the kernel has no output partition to take the launch grid from: pass LaunchOptions::grid");
  for (int64_t g : *grid)
    if (g < 1 || g > INT32_MAX)
      throw UserError("launch grid dimensions must be in 1..2^31-1, got " + std::to_string(g));
  if (scheduled && ((*grid)[1] != 1 || (*grid)[2] != 1))
    throw UserError(
        "a kernel with OutTiles or OutTilesList parameters runs on a 1-D grid (its schedules hand out "
        "tiles by the x block "
        "index only), got the grid " +
        dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}));
  for (const auto& [i, g] : prefixes)
    for (size_t d = 0; d < 3; ++d)
      if ((*grid)[d] > g[d])
        throw UserError("the launch grid " + dims_text({(*grid)[0], (*grid)[1], (*grid)[2]}) +
                        " has more blocks along axis " + std::to_string(d) + " than " + arg_name(i, args[i]) +
                        ", a prefix partition, has tiles " + dims_text({g[0], g[1], g[2]}) +
                        ": a block would write past its tensor");
  return *grid;
}

}  // namespace cutile::detail
