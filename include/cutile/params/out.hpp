// Out<E, Shape<...>>: this tile block's exclusive tile of an output; the shape is the tile shape.
// Out<E, Shape<...>, Order<...>> is the same over a permuted partition (tile dim i walks tensor dim O[i]).
// At launch an Out takes a Partition of a Tensor whose tile shape and order match; the partitions' grid is
// the launch grid.
#pragma once

#include <array>
#include <source_location>
#include <string>
#include <vector>

#include "cutile/axis_order.hpp"
#include "cutile/error.hpp"
#include "cutile/params/base.hpp"

namespace cutile {

namespace detail {

// Whether tile shape P divides tile shape S of the same rank in every dimension.
template <TileShape S, TileShape P>
constexpr bool tile_divides() {
  for (size_t d = 0; d < S::rank; ++d)
    if (S::dims[d] % P::dims[d] != 0) return false;
  return true;
}

}  // namespace detail

/// This block's exclusive tile of an output. With an Order O, tile dim i walks tensor dim O[i]: a
/// kernel that computes Cᵀ tile by tile writes C through Out<E, Shape<BN, BM>, Order<1, 0>>; the launch
/// passes `c.partition({BN, BM}, {1, 0})`.
template <Element E, ShapeType S, class O = identity_order<S::rank>>
  requires PermutationOf<O, S::rank>
class Out {
  // Asserted rather than constrained: a kernel with a bad tile shape then fails at its launch with this
  // message, not as an unresolved overload.
  static_assert(TileShape<S>,
                "an output's tile shape is static, every dimension a power of two, at most 2^24 elements");

 public:
  static constexpr size_t rank = S::rank;
  static_assert(rank >= 1 && rank <= 3, "an output tile has rank 1, 2 or 3: one grid axis per dimension");
  using element_type = E;
  using shape_type = S;
  using order_type = O;

  Out(detail::ArrayValues values, detail::TraceContext::TokenChain& tokens)
      : part_{std::move(values), &tokens} {}

  /// The index of this block's tile: the block's grid coordinates, one per (tile) dimension.
  std::array<Int, rank> tile_index(std::source_location where = std::source_location::current()) const {
    auto ids = detail::TraceContext::current(where).block_ids(where);
    std::array<Int, rank> out = [&]<size_t... I>(std::index_sequence<I...>) {
      return std::array<Int, rank>{Int(ids[I])...};
    }(std::make_index_sequence<rank>{});
    return out;
  }

  /// Writes this block's tile; elements past the tensor's edge are not written.
  void store(const Tile<E, S>& value, AccessHints hints = {},
             std::source_location where = std::source_location::current()) const {
    part_.store(detail::trace_at(where), value, index(where), hints);
  }

  /// The same with a memory ordering: `release(memory_scope::device)` makes the block's earlier writes
  /// visible to whoever acquires this tile's values (memory_ordering.hpp).
  void store(const Tile<E, S>& value, StoreOrdering ordering, AccessHints hints = {},
             std::source_location where = std::source_location::current()) const {
    part_.store(detail::trace_at(where), value, index(where), hints, ordering);
  }

  /// Reads this block's tile (for kernels that update their output in place).
  Tile<E, S> load(pad padding = pad::none, AccessHints hints = {},
                  std::source_location where = std::source_location::current()) const {
    return part_.load(detail::trace_at(where), index(where), padding, hints);
  }

  /// The same with a memory ordering (weak, relaxed(scope) or acquire(scope)).
  Tile<E, S> load(LoadOrdering ordering, pad padding = pad::none, AccessHints hints = {},
                  std::source_location where = std::source_location::current()) const {
    return part_.load(detail::trace_at(where), index(where), padding, hints, ordering);
  }

  /// Reads part `part` of this block's tile cut into tiles of P (P divides S in every dimension; `part`
  /// counts in units of P inside the block's tile, checked at trace time): one tile-space load of the
  /// output partitioned by P, e.g. each half of a tile as its own access.
  template <int64_t... P>
    requires(sizeof...(P) == rank) && TileShape<Shape<P...>> && (detail::tile_divides<S, Shape<P...>>())
  Tile<E, Shape<P...>> load(tile_t<P...>, std::array<int64_t, rank> part, pad padding = pad::none,
                            AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    return sub_partition<Shape<P...>>().load(b, part_index<Shape<P...>>(b, part, where), padding, hints);
  }

  /// Writes part `part` of this block's tile cut into tiles of P (as the partial load above).
  template <int64_t... P>
    requires(sizeof...(P) == rank) && TileShape<Shape<P...>> && (detail::tile_divides<S, Shape<P...>>())
  void store(tile_t<P...>, std::array<int64_t, rank> part, const Tile<E, Shape<P...>>& value,
             AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    sub_partition<Shape<P...>>().store(b, value, part_index<Shape<P...>>(b, part, where), hints);
  }

  /// Writes `value` to the elements at `at(...)` of this block's tile — coordinates relative to the
  /// tile, in its dimension order, shapes broadcast. Coordinates outside the tile or the tensor are not
  /// written, so the block cannot reach another block's tile.
  template <IndexTile... I, TileShape V>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>>>
  void scatter(const At<I...>& at, const Tile<E, V>& value, ScatterOptions options = {},
               std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>>;
    ir::Builder& b = detail::trace_at(where);
    scatter_with(b, confined(b, where), detail::index_values<R>(at), broadcast_to<R>(value).value(), nullptr,
                 R::vector(), options, where);
  }

  /// The same, writing only where `mask` is true (cuTile Python's scatter(..., mask=)); the tile and
  /// tensor bounds still apply.
  template <IndexTile... I, TileShape V, TileShape M>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>, Tile<bool, M>>>
  void scatter(const At<I...>& at, const Tile<E, V>& value, const Tile<bool, M>& mask,
               ScatterOptions options = {},
               std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>, Tile<bool, M>>;
    ir::Builder& b = detail::trace_at(where);
    scatter_with(b, confined(b, where), detail::index_values<R>(at), broadcast_to<R>(value).value(),
                 broadcast_to<R>(mask).value(), R::vector(), options, where);
  }

  /// Escape hatch: writes `value` at `at(...)` — element coordinates of the whole output tensor, in its
  /// dimension order — wherever they fall, other blocks' tiles included (only the tensor's bounds are
  /// checked). Two blocks writing one element race; the kernel must rule that out itself.
  template <IndexTile... I, TileShape V>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>>>
  void unchecked_scatter(const At<I...>& at, const Tile<E, V>& value, ScatterOptions options = {},
                         std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>>;
    ir::Builder& b = detail::trace_at(where);
    scatter_with(b, detail::addressing(part_.values), detail::index_values<R>(at),
                 broadcast_to<R>(value).value(), nullptr, R::vector(), options, where);
  }

  /// Escape hatch: the same, writing only where `mask` is true (the tensor's bounds still apply).
  template <IndexTile... I, TileShape V, TileShape M>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>, Tile<bool, M>>>
  void unchecked_scatter(const At<I...>& at, const Tile<E, V>& value, const Tile<bool, M>& mask,
                         ScatterOptions options = {},
                         std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>, Tile<bool, M>>;
    ir::Builder& b = detail::trace_at(where);
    scatter_with(b, detail::addressing(part_.values), detail::index_values<R>(at),
                 broadcast_to<R>(value).value(), broadcast_to<R>(mask).value(), R::vector(), options, where);
  }

  /// Escape hatch: writes tile number `tile_index` of the partition, whichever block owns it.
  void unchecked_store(std::array<IndexArg, rank> tile_index, const Tile<E, S>& value, AccessHints hints = {},
                       std::source_location where = std::source_location::current()) const {
    unchecked_store(tile_index, value, weak, hints, where);
  }

  /// The same with a memory ordering (weak, relaxed(scope) or release(scope)).
  void unchecked_store(std::array<IndexArg, rank> tile_index, const Tile<E, S>& value, StoreOrdering ordering,
                       AccessHints hints = {},
                       std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : tile_index) idx.push_back(i.value(b));
    part_.store(b, value, idx, hints, ordering);
  }

  /// Escape hatch: writes `value` through a gather-scatter view (bytecode 13.3; the store side of
  /// In::load_gathered). Dimension SPARSE of the tile goes to the rows (elements) named by `ids`, the
  /// other dimensions to tile `index` (its entry SPARSE is ignored): `y.unchecked_store_scattered<0>(t,
  /// ids, {0, j})` writes y[ids[r], 64j + c] = t[r, c]. Ids outside the tensor are not written. The rows
  /// need not lie in this block's tile, so blocks can race; the kernel must rule that out. Rank ≥ 2.
  template <size_t SPARSE, int64_t... T, IntegerElement I>
    requires(rank >= 2) && (SPARSE < rank) && (sizeof...(T) == rank) && TileShape<Shape<T...>>
  void unchecked_store_scattered(const Tile<E, Shape<T...>>& value,
                                 const Tile<I, Shape<Shape<T...>::dims[SPARSE]>>& ids,
                                 std::array<IndexArg, rank> index, AccessHints hints = {},
                                 std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type =
        ir::Type::gather_scatter_view({static_cast<int32_t>(T)...}, part_.values.tensor_view->type(),
                                      static_cast<int32_t>(SPARSE), std::nullopt);
    ir::Value* view = b.create_value(ir::Opcode::make_gather_scatter_view, type, {part_.values.tensor_view});
    detail::TraceContext::TokenChain& chain = *part_.tokens;
    detail::stored(
        chain, b.store_view(value.value(), view, detail::gather_index<SPARSE, T...>(b, ids.value(), index),
                            detail::token_for_store(chain), ir::MemoryOrdering::weak, std::nullopt,
                            detail::access_hints(hints)));
  }

  /// Extent of tensor dimension A.
  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(part_.values.extents[A]);
  }

 private:
  template <TileShape P>
  detail::OutputPartition<E, P, O> sub_partition() const {
    return {part_.values, part_.tokens};
  }
  // The P-tile index of `part` of this block's tile: block id · (S / P) + part, per dimension. A part
  // outside the block's tile would reach another block's elements, so it is refused.
  template <TileShape P>
  std::vector<ir::Value*> part_index(ir::Builder& b, const std::array<int64_t, rank>& part,
                                     const std::source_location& where) const {
    std::vector<ir::Value*> idx = index(where);
    for (size_t d = 0; d < rank; ++d) {
      const int64_t parts = S::dims[d] / P::dims[d];
      if (part[d] < 0 || part[d] >= parts)
        throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) + ": part " +
                        std::to_string(part[d]) + " of tile dimension " + std::to_string(d) +
                        " is outside this block's tile (" + std::to_string(parts) + " parts)");
      if (parts > 1) idx[d] = b.binary(ir::Opcode::muli, idx[d], b.constant_int(ir::ElementType::i32, parts));
      if (part[d] > 0)
        idx[d] = b.binary(ir::Opcode::addi, idx[d], b.constant_int(ir::ElementType::i32, part[d]));
    }
    return idx;
  }
  std::vector<ir::Value*> index(const std::source_location& where) const {
    auto ids = detail::TraceContext::current(where).block_ids(where);
    return std::vector<ir::Value*>(ids.begin(), ids.begin() + rank);
  }
  // This block's tile as the only elements a scatter may reach: coordinates relative to the tile, each
  // below its tile dimension.
  detail::Addressing confined(ir::Builder& b, const std::source_location& where) const {
    detail::Addressing a;
    a.base = part_.values.base;
    const auto ids = index(where);
    for (size_t d = 0; d < rank; ++d) {
      const auto t = static_cast<size_t>(O::dims[d]);
      a.extents.push_back(part_.values.extents[t]);
      a.strides.push_back(part_.values.strides[t]);
      a.origins.push_back(
          b.binary(ir::Opcode::muli, ids[d], b.constant_int(ir::ElementType::i32, S::dims[d])));
      a.limits.push_back(S::dims[d]);
    }
    return a;
  }
  void scatter_with(ir::Builder& b, const detail::Addressing& a, const std::vector<ir::Value*>& indices,
                    ir::Value* value, ir::Value* mask, const std::vector<int64_t>& shape,
                    const ScatterOptions& options, const std::source_location& where) const {
    const detail::PointerTile p = detail::pointer_tile(b, a, indices, shape, mask);
    detail::stored(*part_.tokens,
                   detail::masked_store(b, p, value, options.latency, detail::token_for_store(*part_.tokens),
                                        where, options.ordering));
  }

  detail::OutputPartition<E, S, O> part_;
};

}  // namespace cutile
