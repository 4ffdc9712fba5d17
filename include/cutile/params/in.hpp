// In<E, Shape<...>>: a read-only tensor shared by all tile blocks; dims may be `dyn`. At launch it takes a
// Tensor<E> (or an AnyTensor of element E) whose rank and static dims match. Tiles are loaded by tile
// number (plain, through an Order, strided, or gathered along one dimension), elements by gathers; a slice
// is an In of its own.
#pragma once

#include <array>
#include <source_location>

#include "cutile/axis_order.hpp"
#include "cutile/params/base.hpp"

namespace cutile {

template <Element E, ShapeType S>
class In {
 public:
  static constexpr size_t rank = S::rank;
  using element_type = E;
  using shape_type = S;

  explicit In(detail::ArrayValues values) : values_(std::move(values)) {}

  /// Loads tile number `index` (in tile units, not elements) of shape tile_t<T...>.
  template <int64_t... T>
    requires(sizeof...(T) == rank) && TileShape<Shape<T...>>
  Tile<E, Shape<T...>> load(tile_t<T...> shape, std::array<IndexArg, rank> index, pad padding = pad::none,
                            AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    return load(shape, identity_order<rank>{}, index, padding, hints, where);
  }

  /// The same with a memory ordering: `flags.load(tile<1>, {0}, acquire(memory_scope::device))` sees
  /// every write another block released before this load reads its value (memory_ordering.hpp).
  template <int64_t... T>
    requires(sizeof...(T) == rank) && TileShape<Shape<T...>>
  Tile<E, Shape<T...>> load(tile_t<T...>, std::array<IndexArg, rank> index, LoadOrdering ordering,
                            pad padding = pad::none, AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    ir::Value* view =
        b.make_partition_view(values_.tensor_view, {static_cast<int32_t>(T)...}, detail::padding_of(padding));
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(
        b.load_view(view, idx, nullptr, ordering.ordering(), ordering.scope(), detail::access_hints(hints))
            .first);
  }

  /// The same with tile dim i walking tensor dim P[i] (`order<1, 0>` reads a transposed tile); `index`
  /// and the tile shape are in the tile's dimension order.
  template <int64_t... T, int... P>
    requires(sizeof...(T) == rank) && TileShape<Shape<T...>> && PermutationOf<Order<P...>, rank>
  Tile<E, Shape<T...>> load(tile_t<T...>, Order<P...>, std::array<IndexArg, rank> index,
                            pad padding = pad::none, AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    ir::Value* view = b.make_partition_view(values_.tensor_view, {static_cast<int32_t>(T)...},
                                            detail::padding_of(padding), Order<P...>::vector());
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(
        b.load_view(view, idx, nullptr, ir::MemoryOrdering::weak, std::nullopt, detail::access_hints(hints))
            .first);
  }

  /// Tile `index` of a strided tiling: tile i starts at element i · STEP of each dimension (Tile IR's
  /// strided view, bytecode 13.3), so tiles may overlap (STEP < T) or leave gaps (STEP > T).
  template <int64_t... T, int64_t... STEP>
    requires(sizeof...(T) == rank) && (sizeof...(STEP) == rank) && TileShape<Shape<T...>> &&
            ((STEP > 0) && ...)
  Tile<E, Shape<T...>> load(tile_t<T...>, steps_t<STEP...>, std::array<IndexArg, rank> index,
                            pad padding = pad::none, AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type =
        ir::Type::strided_view({static_cast<int32_t>(T)...}, {static_cast<int32_t>(STEP)...},
                               values_.tensor_view->type(), {}, detail::padding_of(padding));
    ir::Value* view = b.create_value(ir::Opcode::make_strided_view, type, {values_.tensor_view});
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(
        b.load_view(view, idx, nullptr, ir::MemoryOrdering::weak, std::nullopt, detail::access_hints(hints))
            .first);
  }

  /// A tile whose dimension SPARSE takes the rows (elements) named by `ids`, the other dimensions tile
  /// `index` as a plain load does (its entry SPARSE is ignored): `x.load_gathered<0>(tile<16, 64>, ids,
  /// {0, j})` reads x[ids[r], 64j + c]. Ids outside the tensor read the padding. Tile IR's
  /// gather_scatter_view (bytecode 13.3; cuTile Python's advanced indexing); rank ≥ 2.
  template <size_t SPARSE, int64_t... T, IntegerElement I>
    requires(rank >= 2) && (SPARSE < rank) && (sizeof...(T) == rank) && TileShape<Shape<T...>>
  Tile<E, Shape<T...>> load_gathered(tile_t<T...>, const Tile<I, Shape<Shape<T...>::dims[SPARSE]>>& ids,
                                     std::array<IndexArg, rank> index, pad padding = pad::none,
                                     AccessHints hints = {},
                                     std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type =
        ir::Type::gather_scatter_view({static_cast<int32_t>(T)...}, values_.tensor_view->type(),
                                      static_cast<int32_t>(SPARSE), detail::padding_of(padding));
    ir::Value* view = b.create_value(ir::Opcode::make_gather_scatter_view, type, {values_.tensor_view});
    return Tile<E, Shape<T...>>(b.load_view(view, detail::gather_index<SPARSE, T...>(b, ids.value(), index),
                                            nullptr, ir::MemoryOrdering::weak, std::nullopt,
                                            detail::access_hints(hints))
                                    .first);
  }

  /// The sub-tensor [start, stop) along dimension AXIS (element coordinates), an In of its own: loads,
  /// gathers and extents see only the slice. Both bounds are clamped into [0, extent], so a slice never
  /// reaches past its tensor (an empty slice when stop ≤ start).
  template <size_t AXIS>
    requires(AXIS < rank)
  In<E, detail::with_dynamic_dim<S, AXIS>> slice(
      IndexArg start, IndexArg stop, std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    return In<E, detail::with_dynamic_dim<S, AXIS>>(
        detail::slice_array(b, values_, AXIS, start.value(b), stop.value(b)));
  }

  /// Reads the elements at `at(i0, i1, ...)` (element coordinates, one integer tile per dimension, shapes
  /// broadcast); elements outside the tensor read `options.padding`.
  template <IndexTile... I>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I...>>
  Tile<E, common_shape<I...>> gather(const At<I...>& at, GatherOptions options = {},
                                     std::source_location where = std::source_location::current()) const {
    return gather_where<common_shape<I...>>(at, nullptr, options, where);
  }

  /// The same, reading only where `mask` is true (elsewhere `options.padding`).
  template <IndexTile... I, TileShape M>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<bool, M>>>
  Tile<E, common_shape<I..., Tile<bool, M>>> gather(
      const At<I...>& at, const Tile<bool, M>& mask, GatherOptions options = {},
      std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<bool, M>>;
    return gather_where<R>(at, broadcast_to<R>(mask).value(), options, where);
  }

  /// Rank 1: `x.gather(indices)`.
  template <IndexTile I>
    requires(rank == 1)
  Tile<E, typename I::shape_type> gather(const I& index, GatherOptions options = {},
                                         std::source_location where = std::source_location::current()) const {
    return gather(cutile::at(index), options, where);
  }

  /// Extent of dimension A (a constant when the kernel's shape or the specialisation fixes it).
  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(values_.extents[A]);
  }

 private:
  template <TileShape R, class... I>
  Tile<E, R> gather_where(const At<I...>& at, ir::Value* mask, const GatherOptions& options,
                          const std::source_location& where) const {
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p =
        detail::pointer_tile(b, detail::addressing(values_), detail::index_values<R>(at), R::vector(), mask);
    // Inputs are never written during a launch (no output may alias them): their loads need no token.
    return Tile<E, R>(
        detail::masked_load(b, p, options.padding, options.latency, nullptr, where, options.ordering).first);
  }

  detail::ArrayValues values_;
};

}  // namespace cutile
