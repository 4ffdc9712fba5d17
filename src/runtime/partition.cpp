#include "cutile/host/partition.hpp"

#include "cutile/error.hpp"

namespace cutile {

std::array<int64_t, 3> partition_grid(std::span<const int64_t> shape, std::span<const int64_t> tile_shape,
                                      std::span<const int64_t> order, const std::function<std::string()>& tensor) {
  auto what = [&] { return "cannot partition tensor " + tensor(); };  // built only for a message
  if (shape.empty() || shape.size() > 3)
    throw UserError(what() + ": partitions need rank 1 to 3 (one tile-grid axis per tensor axis), found rank " +
                    std::to_string(shape.size()));
  if (tile_shape.size() != shape.size())
    throw UserError(what() + " into tiles " + format_extents(tile_shape) + ": the tile has rank " +
                    std::to_string(tile_shape.size()) + " but the tensor has rank " +
                    std::to_string(shape.size()));
  if (order.size() != shape.size())
    throw UserError(what() + " in order " + format_extents(order) + ": the order has " + std::to_string(order.size()) +
                    " entries but the tensor has rank " + std::to_string(shape.size()));
  std::array<bool, 3> seen{};  // rank ≤ 3 (checked above)
  for (int64_t d : order) {
    if (d < 0 || d >= static_cast<int64_t>(shape.size()) || seen[static_cast<size_t>(d)])
      throw UserError(what() + " in order " + format_extents(order) +
                      ": the order must name each tensor dimension 0.." + std::to_string(shape.size() - 1) + " once");
    seen[static_cast<size_t>(d)] = true;
  }
  std::array<int64_t, 3> grid{1, 1, 1};
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    const int64_t tile = tile_shape[axis];
    if (tile < 1)
      throw UserError(what() + " into tiles " + format_extents(tile_shape) + ": tile dim " +
                      std::to_string(axis) + " is " + std::to_string(tile) +
                      "; every tile dim must be at least 1");
    if ((tile & (tile - 1)) != 0)
      throw UserError(what() + " into tiles " + format_extents(tile_shape) + ": tile dim " +
                      std::to_string(axis) + " is " + std::to_string(tile) +
                      ", which is not a power of two (Tile IR tile dims are)");
    const int64_t extent = shape[static_cast<size_t>(order[axis])];  // tile dim `axis` walks it
    grid[axis] = (extent + tile - 1) / tile;  // a partial last tile is allowed
  }
  return grid;
}

}  // namespace cutile
