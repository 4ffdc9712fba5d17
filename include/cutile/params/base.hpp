// What the kernel-parameter kinds share. A kernel's parameters are typed by their kind, one header each:
//   In                params/in.hpp         a read-only tensor shared by all tile blocks
//   Out               params/out.hpp        this tile block's exclusive tile of an output
//   OutTiles          params/out_tiles.hpp  every tile of an output, reached through a schedule
//   Atomic            params/atomic.hpp     a whole tensor, updated only atomically
//   InList            params/list.hpp       a list of read-only tensors
//   OutTilesList      params/list.hpp       a list of output partitions, reached through a schedule
//   RawPtr            params/raw_ptr.hpp    escape hatch: a tensor's base address alone
//   Tile<E, Shape<>>  a scalar (Int, Float, ...), passed by value
// Each tensor becomes 1 + 2·rank entry parameters (base pointer, extents, strides, i32). Shared here: the
// kinds as the launch path names them (ArgKind), the tile shape, steps and padding of a load, access
// hints, tile-space indices, the facts a specialisation knows of a tensor, the tensor prologue, the token
// rule, and the output partition behind Out and OutTiles.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "cutile/arith.hpp"
#include "cutile/gather.hpp"
#include "cutile/memory_ordering.hpp"

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
  ir::Value* value(ir::Builder& b) const {
    return value_ ? value_ : b.constant_int(ir::ElementType::i32, constant_);
  }

 private:
  ir::Value* value_ = nullptr;
  int32_t constant_ = 0;
};

namespace detail {

/// output: an Out (one tile per block, the grid is its partition's); output_tiles: an OutTiles (tiles
/// handed out by a schedule, any 1-D grid); atomic: an Atomic (a whole tensor, updated atomically);
/// input_list, output_tiles_list: an InList, an OutTilesList (a list of tensors or partitions);
/// raw_pointer: a RawPtr (a tensor's base address alone, read and written unchecked).
enum class ArgKind {
  input,
  output,
  output_tiles,
  scalar,
  atomic,
  input_list,
  output_tiles_list,
  raw_pointer
};
inline bool is_output(ArgKind kind) {
  return kind == ArgKind::output || kind == ArgKind::output_tiles || kind == ArgKind::output_tiles_list;
}
inline bool is_list(ArgKind kind) {
  return kind == ArgKind::input_list || kind == ArgKind::output_tiles_list;
}
/// Whether the kernel may write the argument's memory — a list's members, not its descriptor rows — so
/// nothing else may reach it.
inline bool is_written(ArgKind kind) {
  return is_output(kind) || kind == ArgKind::atomic || kind == ArgKind::raw_pointer;
}

/// What is known about one tensor argument when its kernel is specialised; each fact becomes an
/// `assume` or a static extent / stride in the traced IR (cuTile Python's rules).
struct ArrayFacts {
  uint32_t unit_stride = 0;   ///< bit d: stride[d] == 1 (baked into the tensor_view type)
  uint32_t unit_extent = 0;   ///< bit d: extent[d] == 1 (baked)
  uint32_t extent_div16 = 0;  ///< bit d: extent[d] % 16 == 0
  uint32_t stride_div16 = 0;  ///< bit d: stride[d] · element size % 16 == 0
  bool base_aligned_16 = false;
  bool operator==(const ArrayFacts&) const = default;
};

/// The index operands of a gather-scatter view: the ids at SPARSE, and for every other dimension d the
/// element offset of tile `index[d]` (index[d] · T[d]): the view takes the start of each dense slice in
/// elements (cuTile Python's ct.Slice(start, length)), the DSL a tile number as everywhere else.
template <size_t SPARSE, int64_t... T, size_t RANK>
std::vector<ir::Value*> gather_index(ir::Builder& b, ir::Value* ids,
                                     const std::array<IndexArg, RANK>& index) {
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
inline Addressing addressing(const ArrayValues& v) {
  return {v.base, v.extents, v.strides, {}, {}};
}

/// The token rule of one alias set (cuTile Python's): a load waits for the last store; a store, scatter
/// or atomic waits for every access before it. The counters tell loops and branches what a body touched.
inline ir::Value* token_for_load(const TraceContext::TokenChain& c) {
  return c.last_store;
}
inline ir::Value* token_for_store(const TraceContext::TokenChain& c) {
  return c.last_access;
}
inline void loaded(ir::Builder& b, TraceContext::TokenChain& c, ir::Value* token) {
  c.last_access =
      c.last_access && c.last_access != c.last_store ? b.join_tokens({c.last_access, token}) : token;
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
                           ir::ElementType element, std::span<const int64_t> static_dims,
                           const ArrayFacts& facts);

/// Declares nothing (the entry's parameters exist already): the prologue of the tensor parameter whose
/// 1 + 2·rank entry parameters start at `first_param`.
ArrayValues trace_array(TraceContext& ctx, size_t first_param, ir::ElementType element,
                        std::span<const int64_t> static_dims, const ArrayFacts& facts);

/// The entry parameter types of a tensor of `rank` dims of `element`.
std::vector<ir::Type> array_param_types(ir::ElementType element, size_t rank);

/// optimization_hints for a view load/store, or nullopt when no hint is set. UserError when invalid.
std::optional<ir::Attribute> access_hints(const AccessHints& hints);

std::optional<ir::PaddingValue> padding_of(pad p);

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
  ir::Value* store_after(ir::Builder& b, ir::Value* token, const Tile<E, S>& value,
                         std::vector<ir::Value*> index, const AccessHints& hints,
                         const StoreOrdering& ordering = {}) const {
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

}  // namespace detail

}  // namespace cutile
