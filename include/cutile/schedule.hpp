// Persistent and swizzled kernels without giving up exclusive outputs.
//
//   for_each_tile(c, grouped<8>, [&](TileIndex<E, Shape<BM, BN>> t) { ... c.store(t, tile); });
//   for_block_tile(c, grouped<8>, [&](TileIndex<E, Shape<BM, BN>> t) { ... });  // one tile per block
//
// A schedule hands tile block b of G the tiles t = b, b + G, b + 2G, ... of the T tiles (`linear`,
// `grouped`), or the contiguous run [b·⌈T/G⌉, (b+1)·⌈T/G⌉) (`split`), each mapped to tile coordinates
// by a bijection. Every tile therefore belongs to exactly one block, and a TileIndex — the only key
// OutTiles::store accepts — can only be minted by a schedule, for the output it was made for. The grid
// is free (LaunchOptions::grid; by default one block per SM, at most one per tile) but must be 1-D.
// for_each_tile walks the tiles of an OutTiles (params/out_tiles.hpp), of several outputs in step, or
// of every member of an OutTilesList (params/list.hpp).
#pragma once

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cutile/grid.hpp"
#include "cutile/loop.hpp"
#include "cutile/math.hpp"
#include "cutile/params/list.hpp"
#include "cutile/params/out_tiles.hpp"

namespace cutile {

/// Row-major over the tile grid (last dimension fastest), blocks taking every G-th tile.
struct linear_t {};
inline constexpr linear_t linear{};

/// Rank 2: GROUP tile rows at a time, walking down a group's column before moving right (the L2-friendly
/// swizzle of grouped GEMM), blocks taking every G-th tile. Rank 3: dimension 0 is a batch, walked
/// outermost (all of batch 0's tiles, then batch 1's), each batch's (rows, columns) grid grouped as rank 2.
template <int GROUP>
  requires(GROUP >= 1)
struct grouped_t {};
template <int GROUP>
inline constexpr grouped_t<GROUP> grouped{};

/// Row-major, each block taking one contiguous run of ⌈T/G⌉ tiles.
struct split_t {};
inline constexpr split_t split{};

/// `schedule`'s order, with each tile's store waiting for the block's store of the tile before (the
/// loop carries the output's token), where for_each_tile otherwise lets them overlap. Which is faster is
/// tileiras' business: an fp8 persistent GEMM whose stores may overlap is compiled into two copies of
/// its loop body that spill (docs/porting-log.md, GEMM).
template <class Schedule>
struct ordered_stores_t {
  Schedule schedule;
};
template <class Schedule>
constexpr ordered_stores_t<Schedule> ordered_stores(Schedule schedule) {
  return {schedule};
}

namespace detail {

/// cuTile Python's loop-parallel stores. In a for_each_tile body, an output whose only access is one
/// store through its TileIndex writes another tile in every iteration, so the store need not wait for
/// the previous iteration's: it waits for the output's accesses before the loop, and its token joins
/// the chain the loop carries, so that accesses after the loop still wait for every store. Chained
/// stores keep tileiras from pipelining the loop (persistent layer norm at D = 1024 on the H200: 0.79×
/// cuTile Python chained, 0.91× not). Which outputs qualify is learnt from the body's first trace (the
/// scratch trace in which a loop finds the chains its body touches) and applied from the next.
class ParallelTileStores {
 public:
  /// `allowed` false: the stores stay chained (ordered_stores).
  explicit ParallelTileStores(std::vector<TraceContext::TokenChain*> chains, bool allowed = true)
      : chains_(std::move(chains)), allowed_(allowed) {
    for (TraceContext::TokenChain* c : chains_) entry_.push_back(token_for_store(*c));
  }

  template <class Body>
  auto trace(Body&& body) {
    struct Counts {
      uint64_t loads, stores, tile_stores;
    };
    std::vector<Counts> before;
    for (const TraceContext::TokenChain* c : chains_) before.push_back({c->loads, c->stores, c->tile_stores});
    const bool learnt = parallel_.size() == chains_.size();
    for (size_t i = 0; learnt && i < chains_.size(); ++i) {
      chains_[i]->parallel_tile_store = parallel_[i];
      chains_[i]->parallel_entry = entry_[i];
    }
    struct Reset {
      const std::vector<TraceContext::TokenChain*>& chains;
      ~Reset() {
        for (TraceContext::TokenChain* c : chains) c->parallel_tile_store = false;
      }
    } reset{chains_};
    auto result = body();
    if (!learnt) {
      for (size_t i = 0; i < chains_.size(); ++i) {
        const TraceContext::TokenChain& c = *chains_[i];
        parallel_.push_back(allowed_ && c.loads == before[i].loads && c.stores == before[i].stores + 1 &&
                            c.tile_stores == before[i].tile_stores + 1);
      }
    }
    return result;
  }

 private:
  std::vector<TraceContext::TokenChain*> chains_;
  std::vector<ir::Value*> entry_;
  std::vector<bool> parallel_;
  bool allowed_;
};

template <size_t RANK>
std::array<Int, RANK> tile_coords(linear_t, const Int& t, const std::array<Int, RANK>& grid,
                                  const std::source_location&) {
  std::array<Int, RANK> coords = grid;
  Int rest = t;
  for (size_t d = RANK; d-- > 1;) {
    coords[d] = rest % grid[d];
    rest = rest / grid[d];
  }
  coords[0] = rest;
  return coords;
}

template <size_t RANK>
std::array<Int, RANK> tile_coords(split_t, const Int& t, const std::array<Int, RANK>& grid,
                                  const std::source_location& where) {
  return tile_coords(linear, t, grid, where);
}

template <int GROUP, size_t RANK>
std::array<Int, RANK> tile_coords(grouped_t<GROUP>, const Int& t, const std::array<Int, RANK>& grid,
                                  const std::source_location& where) {
  static_assert(RANK == 2 || RANK == 3, "the grouped order needs a rank-2 output, or rank 3 with a batch first");
  if constexpr (RANK == 3) {
    // Batch after batch (TileGym's bmm: bid_q = t / tiles per batch), each batch's 2-D grid grouped.
    const Int per_batch = grid[1] * grid[2];
    const std::array<Int, 2> in_batch =
        tile_coords(grouped_t<GROUP>{}, t % per_batch, std::array<Int, 2>{grid[1], grid[2]}, where);
    return {t / per_batch, in_batch[0], in_batch[1]};
  } else {
    const Int group_size = as_index(GROUP, where);
    const Int tiles_per_group = group_size * grid[1];
    const Int first_row = t / tiles_per_group * group_size;
    const Int rows = minimum(grid[0] - first_row, group_size);  // the last group may be short
    const Int local = t % tiles_per_group;
    return {first_row + local % rows, local / rows};
  }
}

template <class Schedule, size_t RANK>
std::array<Int, RANK> tile_coords(ordered_stores_t<Schedule> ordered, const Int& t, const std::array<Int, RANK>& grid,
                                  const std::source_location& where) {
  return tile_coords(ordered.schedule, t, grid, where);
}

template <class Schedule>
inline constexpr bool is_ordered = false;
template <class Schedule>
inline constexpr bool is_ordered<ordered_stores_t<Schedule>> = true;

template <class Schedule>
inline constexpr bool is_member_schedule = std::is_same_v<Schedule, linear_t>;
template <int GROUP>
inline constexpr bool is_member_schedule<grouped_t<GROUP>> = true;

}  // namespace detail

/// Runs body(TileIndex) for each tile of `out` this block owns under `schedule` (or ordered_stores of
/// one), in a runtime loop (the output's memory tokens are carried through it).
template <Element E, TileShape S, class O, class Schedule, class Body>
void for_each_tile(const OutTiles<E, S, O>& out, Schedule schedule, Body body,
                   std::source_location where = std::source_location::current()) {
  const std::array<Int, S::rank> grid = out.tile_grid(where);
  Int total = grid[0];
  for (size_t d = 1; d < S::rank; ++d) total = total * grid[d];
  const Int block = block_id<0>(where);
  const Int blocks = num_blocks<0>(where);
  detail::ParallelTileStores parallel({&detail::tile_index_access::chain(out)}, !detail::is_ordered<Schedule>);
  auto visit = [&](Int t, std::tuple<> none) {
    return parallel.trace([&] {
      body(detail::tile_index_access::make(detail::tile_coords(schedule, t, grid, where), out));
      return none;
    });
  };
  if constexpr (std::is_same_v<Schedule, split_t> || std::is_same_v<Schedule, ordered_stores_t<split_t>>) {
    const Int chunk = (total + blocks - detail::as_index(1, where)) / blocks;
    const Int first = block * chunk;
    loop(first, minimum(first + chunk, total), std::tuple<>{}, visit, where);
  } else {
    loop(block, total, blocks, std::tuple<>{}, visit, where);
  }
}

/// One tile per block, no loop: block b of a 1-D grid stores tile b of `schedule`'s order (`linear`, or
/// `grouped<G>`: TileGym's GROUP_SIZE_M swizzle of its non-persistent GEMM). The order is a bijection, so
/// each tile still has one owner. The launch gives exactly one block per tile (LaunchOptions::grid =
/// {tiles, 1, 1}): the default grid of an OutTiles is a persistent one.
template <Element E, TileShape S, class O, class Schedule, class Body>
  requires detail::is_member_schedule<Schedule>
void for_block_tile(const OutTiles<E, S, O>& out, Schedule schedule, Body body,
                    std::source_location where = std::source_location::current()) {
  body(detail::tile_index_access::make(detail::tile_coords(schedule, block_id<0>(where), out.tile_grid(where), where),
                                       out));
}

/// Several outputs walked in step — a row tile of a normalised output and the per-row statistics beside
/// it — with a carried state (a tile, a tuple of tiles or std::tuple<>, as loop's): tile number t of every
/// output goes to one block, and body(TileIndex..., State) -> State gets one TileIndex per output, each
/// mapped by that output's own tile grid. Only t below the smallest output's tile count is visited, so
/// each output's tiles still have at most one owner. Row-major orders only (`linear`, `split`). Returns
/// the state after the block's last tile (`init` for a block with none).
template <class... Outs, class Schedule, class State, class Body>
  requires(sizeof...(Outs) >= 1) && (std::is_same_v<Schedule, linear_t> || std::is_same_v<Schedule, split_t>)
State for_each_tile(std::tuple<Outs&...> outs, Schedule schedule, State init, Body body,
                    std::source_location where = std::source_location::current()) {
  const auto grids =
      std::apply([&](const auto&... out) { return std::tuple{out.tile_grid(where)...}; }, outs);
  auto tiles = [](const auto& grid) {
    Int n = grid[0];
    for (size_t d = 1; d < grid.size(); ++d) n = n * grid[d];
    return n;
  };
  const Int total = std::apply(
      [&](const auto& first, const auto&... rest) {
        Int fewest = tiles(first);
        ((fewest = minimum(fewest, tiles(rest))), ...);
        return fewest;
      },
      grids);
  const Int block = block_id<0>(where);
  const Int blocks = num_blocks<0>(where);
  detail::ParallelTileStores parallel(std::apply(
      [](const auto&... out) { return std::vector{&detail::tile_index_access::chain(out)...}; }, outs));
  auto visit = [&](Int t, State state) {
    return parallel.trace([&] {
      return [&]<size_t... I>(std::index_sequence<I...>) {
        return body(detail::tile_index_access::make(
                        detail::tile_coords(schedule, t, std::get<I>(grids), where), std::get<I>(outs))...,
                    std::move(state));
      }(std::index_sequence_for<Outs...>{});
    });
  };
  if constexpr (std::is_same_v<Schedule, split_t>) {
    const Int chunk = (total + blocks - detail::as_index(1, where)) / blocks;
    const Int first = block * chunk;
    return loop(first, minimum(first + chunk, total), std::move(init), visit, where);
  } else {
    return loop(block, total, blocks, std::move(init), visit, where);
  }
}

/// The same without a carried state: body(TileIndex...).
template <class... Outs, class Schedule, class Body>
  requires(sizeof...(Outs) >= 1) && (std::is_same_v<Schedule, linear_t> || std::is_same_v<Schedule, split_t>)
void for_each_tile(std::tuple<Outs&...> outs, Schedule schedule, Body body,
                   std::source_location where = std::source_location::current()) {
  for_each_tile(
      outs, schedule, std::tuple<>{},
      [&](const auto&... t_and_state) {
        [&]<size_t... I>(std::index_sequence<I...>, const auto& args) { body(std::get<I>(args)...); }(
            std::make_index_sequence<sizeof...(Outs)>{}, std::tie(t_and_state...));
        return std::tuple<>{};
      },
      where);
}

/// Walks the tiles of every member of `out`, member after member, numbering them consecutively across
/// the list; under `schedule` (`linear`, or `grouped<G>` within each member) block b of G visits the
/// tiles numbered b, b + G, b + 2G, ... — each tile of each member belongs to exactly one block.
/// `prepare(g)` runs once per member (load the member's inputs there) and returns the body, which runs
/// as body(ListTileIndex) for each of the member's tiles this block owns. cuTile Python's group GEMM
/// loop: a runtime loop over the members carrying (first tile number of the member, this block's next
/// tile number), and inside it a while loop over the block's tiles of the member.
template <Element E, TileShape S, class Schedule, class Prepare>
  requires detail::is_member_schedule<Schedule>
void for_each_tile(const OutTilesList<E, S>& out, Schedule schedule, Prepare prepare,
                   std::source_location where = std::source_location::current()) {
  const Int block = block_id<0>(where);
  const Int blocks = num_blocks<0>(where);
  using Cursor = std::tuple<Int, Int>;  // (the member's first tile number, this block's next tile number)
  loop(
      0, out.size(), Cursor{detail::as_index(0, where), block},
      [&](Int g, Cursor cursor) {
        auto [first, next] = cursor;
        auto body = prepare(g);
        const OutTiles<E, S> tiles = detail::list_tile_access::member_tiles(out, g, where);
        const std::array<Int, S::rank> grid = tiles.tile_grid(where);
        Int count = grid[0];
        for (size_t d = 1; d < S::rank; ++d) count = count * grid[d];
        const Int end = first + count;
        detail::ParallelTileStores parallel({&detail::list_tile_access::chain(out)});
        Int after = while_(
            next, [&](const Int& t) { return t < end; },
            [&](Int t) {
              parallel.trace([&] {
                body(detail::list_tile_access::make(g, tiles,
                                                    detail::tile_coords(schedule, t - first, grid, where)));
                return std::tuple<>{};
              });
              return t + blocks;
            },
            where);
        return Cursor{end, after};
      },
      where);
}

}  // namespace cutile
