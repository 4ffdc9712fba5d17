// OutTiles<E, Shape<BM, BN>[, Order<...>]>: every tile of an output partition, for kernels that visit
// several tiles per block (persistent GEMM) or visit them in a swizzled order. A tile is reached only
// through a TileIndex, which only a schedule's for_each_tile mints (schedule.hpp), for the output it was
// made for: every tile still has exactly one owner. At launch an OutTiles takes a Partition, as an Out
// does.
#pragma once

#include <array>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "cutile/axis_order.hpp"
#include "cutile/error.hpp"
#include "cutile/grid.hpp"
#include "cutile/params/base.hpp"

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
    }(std::make_index_sequence<rank>{});
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
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>>>
  void unchecked_scatter(const At<I...>& at, const Tile<E, V>& value,
                         std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>>;
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p = detail::pointer_tile(b, detail::addressing(part_.values),
                                                       detail::index_values<R>(at), R::vector(), nullptr);
    detail::stored(*part_.tokens, detail::masked_store(b, p, broadcast_to<R>(value).value(), std::nullopt,
                                                       detail::token_for_store(*part_.tokens), where));
  }

  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(part_.values.extents[A]);
  }

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

}  // namespace detail

}  // namespace cutile
