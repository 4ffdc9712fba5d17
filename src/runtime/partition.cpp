#include "cutile/partition.hpp"

#include "cutile/error.hpp"

namespace cutile {

std::array<int64_t, 3> partition_grid(std::span<const int64_t> shape, std::span<const int64_t> tile_shape,
                                      std::string_view tensor) {
  const std::string what = "cannot partition tensor " + std::string(tensor);
  if (shape.empty() || shape.size() > 3)
    throw UserError(what + ": partitions need rank 1 to 3 (one tile-grid axis per tensor axis), found rank " +
                    std::to_string(shape.size()));
  if (tile_shape.size() != shape.size())
    throw UserError(what + " into tiles " + format_extents(tile_shape) + ": the tile has rank " +
                    std::to_string(tile_shape.size()) + " but the tensor has rank " +
                    std::to_string(shape.size()));
  std::array<int64_t, 3> grid{1, 1, 1};
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    const int64_t tile = tile_shape[axis];
    if (tile < 1)
      throw UserError(what + " into tiles " + format_extents(tile_shape) + ": tile dim " +
                      std::to_string(axis) + " is " + std::to_string(tile) +
                      "; every tile dim must be at least 1");
    if ((tile & (tile - 1)) != 0)
      throw UserError(what + " into tiles " + format_extents(tile_shape) + ": tile dim " +
                      std::to_string(axis) + " is " + std::to_string(tile) +
                      ", which is not a power of two (Tile IR tile dims are)");
    grid[axis] = (shape[axis] + tile - 1) / tile;  // a partial last tile is allowed
  }
  return grid;
}

}  // namespace cutile
