// Kernel parameters as the kernel body sees them.
//   In<E, Shape<...>>   a read-only tensor shared by all tile blocks; dims may be `dyn`.
//   Out<E, Shape<...>>  this tile block's exclusive tile of an output; the shape is the tile shape.
//   Out<E, Shape<...>, Order<...>>  the same over a permuted partition (tile dim i walks tensor dim O[i]).
//   Tile<E, Shape<>>    a scalar (Int, Float, ...), passed by value.
// At launch an In takes a Tensor, an Out a Partition of a Tensor whose tile shape matches, a scalar a
// number. Each tensor becomes 1 + 2·rank entry parameters (base pointer, extents, strides, i32).
#pragma once

#include <array>
#include <optional>
#include <variant>

#include "cutile/arith.hpp"
#include "cutile/error.hpp"
#include "cutile/gather.hpp"
#include "cutile/order.hpp"

namespace cutile {

/// What a load returns where a tile hangs over the edge of the tensor.
enum class pad { none, zero, neg_zero, nan, pos_inf, neg_inf };

/// The shape of a tile to load: `cutile::tile<1, 4096>`.
template <int64_t... DIMS>
struct tile_t {};
template <int64_t... DIMS>
inline constexpr tile_t<DIMS...> tile{};

/// Where consecutive tiles of a strided load start, per dimension: `cutile::steps<8, 64>` with tiles of
/// <16, 64> reads row blocks that overlap by half.
template <int64_t... STEPS>
struct steps_t {};
template <int64_t... STEPS>
inline constexpr steps_t<STEPS...> steps{};

/// Per-access hints for tileiras; validated before it runs.
struct AccessHints {
  std::optional<int> latency;     ///< 1..10: expected memory latency class, a scheduling hint
  std::optional<bool> allow_tma;  ///< false keeps this access off the TMA engine
};

/// A tile-space index: a traced Int or a plain number.
class IndexArg {
 public:
  IndexArg(const Int& i) : value_(i.value()) {}  // NOLINT(google-explicit-constructor): {row, 0}
  IndexArg(int32_t i) : constant_(i) {}          // NOLINT(google-explicit-constructor)
  /// Chosen only for the entries a too-short index leaves out: `x.load(tile<1, 128>, {i})` on a 2-D x.
  template <class T = void>
  IndexArg() {
    static_assert(!std::is_void_v<T>,
                  "a tile index has one entry per tensor dimension: {i, j} for a 2-D tensor");
  }
  ir::Value* value(ir::Builder& b) const { return value_ ? value_ : b.constant_int(ir::ElementType::i32, constant_); }

 private:
  ir::Value* value_ = nullptr;
  int32_t constant_ = 0;
};

namespace detail {

/// What is known about one tensor argument when its kernel is specialised; each fact becomes an
/// `assume` or a static extent / stride in the traced IR (cuTile Python's rules).
struct ArrayFacts {
  uint32_t unit_stride = 0;    ///< bit d: stride[d] == 1 (baked into the tensor_view type)
  uint32_t unit_extent = 0;    ///< bit d: extent[d] == 1 (baked)
  uint32_t extent_div16 = 0;   ///< bit d: extent[d] % 16 == 0
  uint32_t stride_div16 = 0;   ///< bit d: stride[d] · element size % 16 == 0
  bool base_aligned_16 = false;
  bool operator==(const ArrayFacts&) const = default;
};

/// The index operands of a gather-scatter view: the ids at SPARSE, and for every other dimension d the
/// element offset of tile `index[d]` (index[d] · T[d]): the view takes the start of each dense slice in
/// elements (cuTile Python's ct.Slice(start, length)), the DSL a tile number as everywhere else.
template <size_t SPARSE, int64_t... T, size_t RANK>
std::vector<ir::Value*> gather_index(ir::Builder& b, ir::Value* ids, const std::array<IndexArg, RANK>& index) {
  constexpr std::array<int64_t, RANK> tile = {T...};
  std::vector<ir::Value*> operands;
  for (size_t d = 0; d < RANK; ++d)
    operands.push_back(d == SPARSE ? ids
                                   : b.binary(ir::Opcode::muli, index[d].value(b),
                                              b.constant_int(ir::ElementType::i32, tile[d])));
  return operands;
}

/// RANK runtime extents.
template <size_t RANK>
inline constexpr std::array<int64_t, RANK> all_dynamic = [] {
  std::array<int64_t, RANK> a{};
  a.fill(dyn);
  return a;
}();

/// The IR values of a tensor parameter after its prologue.
struct ArrayValues {
  ir::Value* tensor_view = nullptr;
  ir::Value* base = nullptr;        // tile<ptr<E>>, with its alignment assumed
  std::vector<ir::Value*> extents;  // scalar i32 per dim (constants where static)
  std::vector<ir::Value*> strides;  // scalar i32 per dim; null where the stride is 1
};

/// `v` restricted to [start, stop) along `axis`, both clamped into [0, extent].
ArrayValues slice_array(ir::Builder& b, const ArrayValues& v, size_t axis, ir::Value* start, ir::Value* stop);

template <ShapeType S, size_t AXIS>
constexpr auto dims_with_dynamic() {
  auto dims = S::dims;
  dims[AXIS] = dyn;
  return dims;
}
/// S with dimension AXIS made dynamic (a slice's shape).
template <ShapeType S, size_t AXIS>
using with_dynamic_dim = typename shape_from_array<dims_with_dynamic<S, AXIS>()>::type;

/// Element-wise addressing of the whole tensor, dims in tensor order.
inline Addressing addressing(const ArrayValues& v) { return {v.base, v.extents, v.strides, {}, {}}; }

/// The token rule of one alias set (cuTile Python's): a load waits for the last store; a store, scatter
/// or atomic waits for every access before it. The counters tell loops and branches what a body touched.
inline ir::Value* token_for_load(const TraceContext::TokenChain& c) { return c.last_store; }
inline ir::Value* token_for_store(const TraceContext::TokenChain& c) { return c.last_access; }
inline void loaded(ir::Builder& b, TraceContext::TokenChain& c, ir::Value* token) {
  c.last_access = c.last_access && c.last_access != c.last_store ? b.join_tokens({c.last_access, token}) : token;
  ++c.loads;
}
inline void stored(TraceContext::TokenChain& c, ir::Value* token) {
  c.last_store = c.last_access = token;
  ++c.stores;
}

/// The prologue of a tensor whose base pointer is `base` and whose extents and strides (i32, in elements)
/// are `layout`, extents first: assumes, then make_tensor_view with static extents from `static_dims`
/// (dyn = runtime) and from the facts.
ArrayValues array_prologue(ir::Builder& b, ir::Value* base, std::span<ir::Value* const> layout,
                           ir::ElementType element, std::span<const int64_t> static_dims, const ArrayFacts& facts);

/// Declares nothing (the entry's parameters exist already): the prologue of the tensor parameter whose
/// 1 + 2·rank entry parameters start at `first_param`.
ArrayValues trace_array(TraceContext& ctx, size_t first_param, ir::ElementType element,
                        std::span<const int64_t> static_dims, const ArrayFacts& facts);

/// The entry parameter types of a tensor of `rank` dims of `element`.
std::vector<ir::Type> array_param_types(ir::ElementType element, size_t rank);

/// optimization_hints for a view load/store, or nullopt when no hint is set. UserError when invalid.
std::optional<ir::Attribute> access_hints(const AccessHints& hints);

std::optional<ir::PaddingValue> padding_of(pad p);

}  // namespace detail

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
                            AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
    return load(shape, identity_order<rank>{}, index, padding, hints, where);
  }

  /// The same with a memory ordering: `flags.load(tile<1>, {0}, acquire(memory_scope::device))` sees
  /// every write another block released before this load reads its value (ordering.hpp).
  template <int64_t... T>
    requires(sizeof...(T) == rank) && TileShape<Shape<T...>>
  Tile<E, Shape<T...>> load(tile_t<T...>, std::array<IndexArg, rank> index, LoadOrdering ordering,
                            pad padding = pad::none, AccessHints hints = {},
                            std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    ir::Value* view = b.make_partition_view(values_.tensor_view, {static_cast<int32_t>(T)...}, detail::padding_of(padding));
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(
        b.load_view(view, idx, nullptr, ordering.ordering(), ordering.scope(), detail::access_hints(hints)).first);
  }

  /// The same with tile dim i walking tensor dim P[i] (`order<1, 0>` reads a transposed tile); `index`
  /// and the tile shape are in the tile's dimension order.
  template <int64_t... T, int... P>
    requires(sizeof...(T) == rank) && TileShape<Shape<T...>> && PermutationOf<Order<P...>, rank>
  Tile<E, Shape<T...>> load(tile_t<T...>, Order<P...>, std::array<IndexArg, rank> index, pad padding = pad::none,
                            AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    ir::Value* view = b.make_partition_view(values_.tensor_view, {static_cast<int32_t>(T)...},
                                            detail::padding_of(padding), Order<P...>::vector());
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(b.load_view(view, idx, nullptr, ir::MemoryOrdering::weak, std::nullopt,
                                            detail::access_hints(hints))
                                    .first);
  }

  /// Tile `index` of a strided tiling: tile i starts at element i · STEP of each dimension (Tile IR's
  /// strided view, bytecode 13.3), so tiles may overlap (STEP < T) or leave gaps (STEP > T).
  template <int64_t... T, int64_t... STEP>
    requires(sizeof...(T) == rank) && (sizeof...(STEP) == rank) && TileShape<Shape<T...>> && ((STEP > 0) && ...)
  Tile<E, Shape<T...>> load(tile_t<T...>, steps_t<STEP...>, std::array<IndexArg, rank> index, pad padding = pad::none,
                            AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type = ir::Type::strided_view({static_cast<int32_t>(T)...}, {static_cast<int32_t>(STEP)...},
                                                 values_.tensor_view->type(), {}, detail::padding_of(padding));
    ir::Value* view = b.create_value(ir::Opcode::make_strided_view, type, {values_.tensor_view});
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(b.load_view(view, idx, nullptr, ir::MemoryOrdering::weak, std::nullopt,
                                            detail::access_hints(hints))
                                    .first);
  }

  /// A tile whose dimension SPARSE takes the rows (elements) named by `ids`, the other dimensions tile
  /// `index` as a plain load does (its entry SPARSE is ignored): `x.load_gathered<0>(tile<16, 64>, ids,
  /// {0, j})` reads x[ids[r], 64j + c]. Ids outside the tensor read the padding. Tile IR's
  /// gather_scatter_view (bytecode 13.3; cuTile Python's advanced indexing); rank ≥ 2.
  template <size_t SPARSE, int64_t... T, IntegerElement I>
    requires(rank >= 2) && (SPARSE < rank) && (sizeof...(T) == rank) && TileShape<Shape<T...>>
  Tile<E, Shape<T...>> load_gathered(tile_t<T...>, const Tile<I, Shape<Shape<T...>::dims[SPARSE]>>& ids,
                                     std::array<IndexArg, rank> index, pad padding = pad::none, AccessHints hints = {},
                                     std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type = ir::Type::gather_scatter_view({static_cast<int32_t>(T)...}, values_.tensor_view->type(),
                                                        static_cast<int32_t>(SPARSE), detail::padding_of(padding));
    ir::Value* view = b.create_value(ir::Opcode::make_gather_scatter_view, type, {values_.tensor_view});
    return Tile<E, Shape<T...>>(b.load_view(view, detail::gather_index<SPARSE, T...>(b, ids.value(), index), nullptr,
                                            ir::MemoryOrdering::weak, std::nullopt,
                                            detail::access_hints(hints))
                                    .first);
  }

  /// The sub-tensor [start, stop) along dimension AXIS (element coordinates), an In of its own: loads,
  /// gathers and extents see only the slice. Both bounds are clamped into [0, extent], so a slice never
  /// reaches past its tensor (an empty slice when stop ≤ start).
  template <size_t AXIS>
    requires(AXIS < rank)
  In<E, detail::with_dynamic_dim<S, AXIS>> slice(IndexArg start, IndexArg stop,
                                                 std::source_location where = std::source_location::current()) const {
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
  Tile<E, common_shape<I..., Tile<bool, M>>> gather(const At<I...>& at, const Tile<bool, M>& mask,
                                                    GatherOptions options = {},
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
    return Tile<E, R>(detail::masked_load(b, p, options.padding, options.latency, nullptr, where, options.ordering).first);
  }

  detail::ArrayValues values_;
};

namespace detail {

/// An output partitioned into S tiles (tile dim i along tensor dim O[i]) with the output's token chain:
/// the partition view and the tile loads and stores that keep the chain, shared by Out and OutTiles.
template <Element E, TileShape S, class O>
struct OutputPartition {
  ArrayValues values;
  TraceContext::TokenChain* tokens;

  ir::Value* view(ir::Builder& b, pad padding) const {
    std::vector<int32_t> dims;
    for (int64_t d : S::dims) dims.push_back(static_cast<int32_t>(d));
    return b.make_partition_view(values.tensor_view, dims, padding_of(padding),
                                 O::is_identity ? std::vector<int32_t>{} : O::vector());
  }
  void store(ir::Builder& b, const Tile<E, S>& value, std::vector<ir::Value*> index, const AccessHints& hints,
             const StoreOrdering& ordering = {}) const {
    stored(*tokens, store_after(b, token_for_store(*tokens), value, std::move(index), hints, ordering));
  }
  /// The store_view_tko alone, waiting for `token` (null: nothing); the caller threads its result token.
  ir::Value* store_after(ir::Builder& b, ir::Value* token, const Tile<E, S>& value, std::vector<ir::Value*> index,
                         const AccessHints& hints, const StoreOrdering& ordering = {}) const {
    return b.store_view(value.value(), view(b, pad::none), std::move(index), token, ordering.ordering(),
                        ordering.scope(), access_hints(hints));
  }
  Tile<E, S> load(ir::Builder& b, std::vector<ir::Value*> index, pad padding, const AccessHints& hints,
                  const LoadOrdering& ordering = {}) const {
    auto [tile, token] = b.load_view(view(b, padding), std::move(index), token_for_load(*tokens),
                                     ordering.ordering(), ordering.scope(), access_hints(hints));
    loaded(b, *tokens, token);
    return Tile<E, S>(tile);
  }
};

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

  Out(detail::ArrayValues values, detail::TraceContext::TokenChain& tokens) : part_{std::move(values), &tokens} {}

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
  /// visible to whoever acquires this tile's values (ordering.hpp).
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
  void scatter(const At<I...>& at, const Tile<E, V>& value, const Tile<bool, M>& mask, ScatterOptions options = {},
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
    scatter_with(b, detail::addressing(part_.values), detail::index_values<R>(at), broadcast_to<R>(value).value(),
                 nullptr, R::vector(), options, where);
  }

  /// Escape hatch: the same, writing only where `mask` is true (the tensor's bounds still apply).
  template <IndexTile... I, TileShape V, TileShape M>
    requires(sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>, Tile<bool, M>>>
  void unchecked_scatter(const At<I...>& at, const Tile<E, V>& value, const Tile<bool, M>& mask,
                         ScatterOptions options = {},
                         std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, V>, Tile<bool, M>>;
    ir::Builder& b = detail::trace_at(where);
    scatter_with(b, detail::addressing(part_.values), detail::index_values<R>(at), broadcast_to<R>(value).value(),
                 broadcast_to<R>(mask).value(), R::vector(), options, where);
  }

  /// Escape hatch: writes tile number `tile_index` of the partition, whichever block owns it.
  void unchecked_store(std::array<IndexArg, rank> tile_index, const Tile<E, S>& value, AccessHints hints = {},
                       std::source_location where = std::source_location::current()) const {
    unchecked_store(tile_index, value, weak, hints, where);
  }

  /// The same with a memory ordering (weak, relaxed(scope) or release(scope)).
  void unchecked_store(std::array<IndexArg, rank> tile_index, const Tile<E, S>& value, StoreOrdering ordering,
                       AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
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
  void unchecked_store_scattered(const Tile<E, Shape<T...>>& value, const Tile<I, Shape<Shape<T...>::dims[SPARSE]>>& ids,
                                 std::array<IndexArg, rank> index, AccessHints hints = {},
                                 std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    const ir::Type type = ir::Type::gather_scatter_view({static_cast<int32_t>(T)...}, part_.values.tensor_view->type(),
                                                        static_cast<int32_t>(SPARSE), std::nullopt);
    ir::Value* view = b.create_value(ir::Opcode::make_gather_scatter_view, type, {part_.values.tensor_view});
    detail::TraceContext::TokenChain& chain = *part_.tokens;
    detail::stored(chain, b.store_view(value.value(), view, detail::gather_index<SPARSE, T...>(b, ids.value(), index),
                                       detail::token_for_store(chain),
                                       ir::MemoryOrdering::weak, std::nullopt, detail::access_hints(hints)));
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
      a.origins.push_back(b.binary(ir::Opcode::muli, ids[d], b.constant_int(ir::ElementType::i32, S::dims[d])));
      a.limits.push_back(S::dims[d]);
    }
    return a;
  }
  void scatter_with(ir::Builder& b, const detail::Addressing& a, const std::vector<ir::Value*>& indices,
                    ir::Value* value, ir::Value* mask, const std::vector<int64_t>& shape, const ScatterOptions& options,
                    const std::source_location& where) const {
    const detail::PointerTile p = detail::pointer_tile(b, a, indices, shape, mask);
    detail::stored(*part_.tokens, detail::masked_store(b, p, value, options.latency,
                                                       detail::token_for_store(*part_.tokens), where, options.ordering));
  }

  detail::OutputPartition<E, S, O> part_;
};

}  // namespace cutile
