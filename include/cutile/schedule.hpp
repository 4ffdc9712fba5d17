// Persistent and swizzled kernels without giving up exclusive outputs.
//
//   OutTiles<E, Shape<BM, BN>>  all tiles of an output partition, reachable only through a schedule
//   for_each_tile(c, grouped<8>, [&](TileIndex<E, Shape<BM, BN>> t) { ... c.store(t, tile); });
//
// A schedule hands tile block b of G the tiles t = b, b + G, b + 2G, ... of the T tiles (`linear`,
// `grouped`), or the contiguous run [b·⌈T/G⌉, (b+1)·⌈T/G⌉) (`split`), each mapped to tile coordinates
// by a bijection. Every tile therefore belongs to exactly one block, and a TileIndex — the only key
// OutTiles::store accepts — can only be minted by a schedule, for the output it was made for. The grid
// is free (LaunchOptions::grid; by default one block per SM, at most one per tile) but must be 1-D.
#pragma once

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cutile/control.hpp"
#include "cutile/error.hpp"
#include "cutile/grid.hpp"
#include "cutile/kernel_params.hpp"
#include "cutile/math.hpp"

namespace cutile {

template <Element E, ShapeType S, class O>
requires PermutationOf<O, S::rank>
class OutTiles;

namespace detail {
struct tile_index_access;
}  // namespace detail

/// Coordinates of one tile of an OutTiles, in tile units; made only by for_each_tile.
template <Element E, TileShape S>
class TileIndex {
 public:
  static constexpr size_t rank = S::rank;
  const std::array<Int, rank>& coords() const { return coords_; }

 private:
  friend struct detail::tile_index_access;
  TileIndex(std::array<Int, rank> coords, const void* owner) : coords_(std::move(coords)), owner_(owner) {}
  std::array<Int, rank> coords_;
  const void* owner_;  // the OutTiles' token chain: an index fits only the output it was made for
  template <Element E2, ShapeType S2, class O2>
  requires PermutationOf<O2, S2::rank>
  friend class OutTiles;
};

/// Every tile of an output partition, for kernels that visit several tiles per block (persistent GEMM)
/// or in a swizzled order; accessed only through for_each_tile's TileIndex. With an Order O the
/// partition is permuted as Out's is: tile dim i walks tensor dim O[i].
template <Element E, ShapeType S, class O = identity_order<S::rank>>
requires PermutationOf<O, S::rank>
class OutTiles {
  static_assert(TileShape<S>,
                "an output's tile shape is static, every dimension a power of two, at most 2^24 elements");

 public:
  static constexpr size_t rank = S::rank;
  static_assert(rank >= 1 && rank <= 3, "an output tile has rank 1, 2 or 3");
  using element_type = E;
  using shape_type = S;
  using order_type = O;

  OutTiles(detail::ArrayValues values, detail::TraceContext::TokenChain& tokens)
      : part_{std::move(values), &tokens} {}

  /// Tiles along each (tile) dimension: ⌈extent / tile⌉.
  std::array<Int, rank> tile_grid(std::source_location where = std::source_location::current()) const {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return std::array<Int, rank>{cdiv(Int(part_.values.extents[static_cast<size_t>(O::dims[I])]),
                                        static_cast<int32_t>(S::dims[I]), where)...};
    }
    (std::make_index_sequence<rank>{});
  }

  /// Writes tile `t`; elements past the tensor's edge are not written.
  void store(const TileIndex<E, S>& t, const Tile<E, S>& value, AccessHints hints = {},
             std::source_location where = std::source_location::current()) const {
    check_owner(t, where);
    ir::Builder& b = detail::trace_at(where);
    detail::TraceContext::TokenChain& chain = *part_.tokens;
    ++chain.tile_stores;
    if (!chain.parallel_tile_store) return part_.store(b, value, index(t), hints);
    ir::Value* token = part_.store_after(b, chain.parallel_entry, value, index(t), hints);
    detail::stored(chain, chain.last_access ? b.join_tokens({chain.last_access, token}) : token);
  }

  /// Reads tile `t` (for kernels that update their output in place).
  Tile<E, S> load(const TileIndex<E, S>& t, pad padding = pad::none, AccessHints hints = {},
                  std::source_location where = std::source_location::current()) const {
    check_owner(t, where);
    return part_.load(detail::trace_at(where), index(t), padding, hints);
  }

  /// Escape hatch, as Out::unchecked_scatter: writes `value` at `at(...)`, element coordinates of the
  /// whole output tensor, in whichever tile they fall (only the tensor's bounds are checked). For kernels
  /// whose block owns a set of elements no schedule describes (a whole row of several tiles); the kernel
  /// must rule out two blocks writing one element.
  template <IndexTile... I, TileShape V>
  requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>>> void unchecked_scatter(
                                        const At<I...>& at, const Tile<E, V>& value,
                                        std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>>;
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p = detail::pointer_tile(b, detail::addressing(part_.values),
                                                       detail::index_values<R>(at), R::vector(), nullptr);
    detail::stored(*part_.tokens, detail::masked_store(b, p, broadcast_to<R>(value).value(), std::nullopt,
                                                       detail::token_for_store(*part_.tokens), where));
  }

  template <size_t A>
  requires(A < rank) Int extent()
  const { return Int(part_.values.extents[A]); }

  const void* identity() const { return part_.tokens; }

 private:
  friend struct detail::tile_index_access;
  void check_owner(const TileIndex<E, S>& t, const std::source_location& where) const {
    if (t.owner_ != part_.tokens)
      throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) +
                      ": a TileIndex made by for_each_tile for one output was used with another output");
  }
  static std::vector<ir::Value*> index(const TileIndex<E, S>& t) {
    std::vector<ir::Value*> out;
    for (const Int& c : t.coords()) out.push_back(c.value());
    return out;
  }

  detail::OutputPartition<E, S, O> part_;
};

/// Row-major over the tile grid (last dimension fastest), blocks taking every G-th tile.
struct linear_t {};
inline constexpr linear_t linear{};

/// Rank 2: GROUP tile rows at a time, walking down a group's column before moving right (the L2-friendly
/// swizzle of grouped GEMM), blocks taking every G-th tile.
template <int GROUP>
requires(GROUP >= 1) struct grouped_t {
};
template <int GROUP>
inline constexpr grouped_t<GROUP> grouped{};

/// Row-major, each block taking one contiguous run of ⌈T/G⌉ tiles.
struct split_t {};
inline constexpr split_t split{};

namespace detail {

// The one place TileIndex values are made.
struct tile_index_access {
  template <Element E, TileShape S, class O>
  static TileIndex<E, S> make(std::array<Int, S::rank> coords, const OutTiles<E, S, O>& out) {
    return TileIndex<E, S>(std::move(coords), out.identity());
  }
  template <Element E, TileShape S, class O>
  static TraceContext::TokenChain& chain(const OutTiles<E, S, O>& out) {
    return *out.part_.tokens;
  }
};

/// cuTile Python's loop-parallel stores. In a for_each_tile body, an output whose only access is one
/// store through its TileIndex writes another tile in every iteration, so the store need not wait for
/// the previous iteration's: it waits for the output's accesses before the loop, and its token joins
/// the chain the loop carries, so that accesses after the loop still wait for every store. Chained
/// stores keep tileiras from pipelining the loop (persistent layer norm at D = 1024 on the H200: 0.79×
/// cuTile Python chained, 0.91× not). Which outputs qualify is learnt from the body's first trace (the
/// scratch trace in which a loop finds the chains its body touches) and applied from the next.
class ParallelTileStores {
 public:
  explicit ParallelTileStores(std::vector<TraceContext::TokenChain*> chains) : chains_(std::move(chains)) {
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
        parallel_.push_back(c.loads == before[i].loads && c.stores == before[i].stores + 1 &&
                            c.tile_stores == before[i].tile_stores + 1);
      }
    }
    return result;
  }

 private:
  std::vector<TraceContext::TokenChain*> chains_;
  std::vector<ir::Value*> entry_;
  std::vector<bool> parallel_;
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
  static_assert(RANK == 2, "the grouped order needs a rank-2 output");
  const Int group_size = as_index(GROUP, where);
  const Int tiles_per_group = group_size * grid[1];
  const Int first_row = t / tiles_per_group * group_size;
  const Int rows = minimum(grid[0] - first_row, group_size);  // the last group may be short
  const Int local = t % tiles_per_group;
  return {first_row + local % rows, local / rows};
}

}  // namespace detail

/// Runs body(TileIndex) for each tile of `out` this block owns under `schedule`, in a runtime loop (the
/// output's memory tokens are carried through it).
template <Element E, TileShape S, class O, class Schedule, class Body>
void for_each_tile(const OutTiles<E, S, O>& out, Schedule schedule, Body body,
                   std::source_location where = std::source_location::current()) {
  const std::array<Int, S::rank> grid = out.tile_grid(where);
  Int total = grid[0];
  for (size_t d = 1; d < S::rank; ++d) total = total * grid[d];
  const Int block = block_id<0>(where);
  const Int blocks = num_blocks<0>(where);
  detail::ParallelTileStores parallel({&detail::tile_index_access::chain(out)});
  auto visit = [&](Int t, std::tuple<> none) {
    return parallel.trace([&] {
      body(detail::tile_index_access::make(detail::tile_coords(schedule, t, grid, where), out));
      return none;
    });
  };
  if constexpr (std::is_same_v<Schedule, split_t>) {
    const Int chunk = (total + blocks - detail::as_index(1, where)) / blocks;
    const Int first = block * chunk;
    loop(first, minimum(first + chunk, total), std::tuple<>{}, visit, where);
  } else {
    loop(block, total, blocks, std::tuple<>{}, visit, where);
  }
}

/// Several outputs walked in step — a row tile of a normalised output and the per-row statistics beside
/// it — with a carried state (a tile, a tuple of tiles or std::tuple<>, as loop's): tile number t of every
/// output goes to one block, and body(TileIndex..., State) -> State gets one TileIndex per output, each
/// mapped by that output's own tile grid. Only t below the smallest output's tile count is visited, so
/// each output's tiles still have at most one owner. Row-major orders only (`linear`, `split`). Returns
/// the state after the block's last tile (`init` for a block with none).
template <class... Outs, class Schedule, class State, class Body>
requires(sizeof...(Outs) >= 1) &&
    (std::is_same_v<Schedule, linear_t> || std::is_same_v<Schedule, split_t>)State
    for_each_tile(std::tuple<Outs&...> outs, Schedule schedule, State init, Body body,
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
      }
      (std::index_sequence_for<Outs...>{});
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
requires(sizeof...(Outs) >= 1) &&
    (std::is_same_v<Schedule, linear_t> || std::is_same_v<Schedule, split_t>)void for_each_tile(
        std::tuple<Outs&...> outs, Schedule schedule, Body body,
        std::source_location where = std::source_location::current()) {
  for_each_tile(
      outs, schedule, std::tuple<>{},
      [&](const auto&... t_and_state) {
        [&]<size_t... I>(std::index_sequence<I...>, const auto& args) {
          body(std::get<I>(args)...);
        }
        (std::make_index_sequence<sizeof...(Outs)>{}, std::tie(t_and_state...));
        return std::tuple<>{};
      },
      where);
}

}  // namespace cutile
