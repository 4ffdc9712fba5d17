// Kernel parameters as the kernel body sees them.
//   In<E, Shape<...>>   a read-only tensor shared by all tile blocks; dims may be `dyn`.
//   Out<E, Shape<...>>  this tile block's exclusive tile of an output; the shape is the tile shape.
//   Tile<E, Shape<>>    a scalar (Int, Float, ...), passed by value.
// At launch an In takes a Tensor, an Out a Partition of a Tensor whose tile shape matches, a scalar a
// number. Each tensor becomes 1 + 2·rank entry parameters (base pointer, extents, strides, i32).
#pragma once

#include <array>
#include <optional>
#include <variant>

#include "cutile/arith.hpp"

namespace cutile {

/// What a load returns where a tile hangs over the edge of the tensor.
enum class pad { none, zero, neg_zero, nan, pos_inf, neg_inf };

/// The shape of a tile to load: `cutile::tile<1, 4096>`.
template <int64_t... DIMS>
struct tile_t {};
template <int64_t... DIMS>
inline constexpr tile_t<DIMS...> tile{};

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

/// The IR values of a tensor parameter after its prologue.
struct ArrayValues {
  ir::Value* tensor_view = nullptr;
  std::vector<ir::Value*> extents;  // scalar i32 per dim (constants where static)
};

/// Declares nothing (the entry's parameters exist already): consumes the 1 + 2·rank parameters starting
/// at `first_param` and emits the prologue — assumes, then make_tensor_view with static extents from
/// `static_dims` (dyn = runtime) and from the facts.
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
  Tile<E, Shape<T...>> load(tile_t<T...>, std::array<IndexArg, rank> index, pad padding = pad::none,
                            AccessHints hints = {}, std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    ir::Value* view =
        b.make_partition_view(values_.tensor_view, {static_cast<int32_t>(T)...}, detail::padding_of(padding));
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : index) idx.push_back(i.value(b));
    return Tile<E, Shape<T...>>(b.load_view(view, idx, nullptr, ir::MemoryOrdering::weak, std::nullopt,
                                            detail::access_hints(hints))
                                    .first);
  }

  /// Extent of dimension A (a constant when the kernel's shape or the specialisation fixes it).
  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(values_.extents[A]);
  }

 private:
  detail::ArrayValues values_;
};

template <Element E, TileShape S>
class Out {
 public:
  static constexpr size_t rank = S::rank;
  static_assert(rank >= 1 && rank <= 3, "an output tile has rank 1, 2 or 3: one grid axis per dimension");
  using element_type = E;
  using shape_type = S;

  Out(detail::ArrayValues values, detail::TraceContext::TokenChain& tokens)
      : values_(std::move(values)), tokens_(&tokens) {}

  /// The index of this block's tile: the block's grid coordinates, one per dimension.
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
    ir::Builder& b = detail::trace_at(where);
    ir::Value* token = b.store_view(value.value(), view(b), index(where), tokens_->last_access,
                                    ir::MemoryOrdering::weak, std::nullopt, detail::access_hints(hints));
    tokens_->last_store = tokens_->last_access = token;
    ++tokens_->stores;
  }

  /// Reads this block's tile (for kernels that update their output in place).
  Tile<E, S> load(pad padding = pad::none, AccessHints hints = {},
                  std::source_location where = std::source_location::current()) const {
    ir::Builder& b = detail::trace_at(where);
    auto [tile, token] = b.load_view(view(b, padding), index(where), tokens_->last_store, ir::MemoryOrdering::weak,
                                     std::nullopt, detail::access_hints(hints));
    tokens_->last_access = tokens_->last_access && tokens_->last_access != tokens_->last_store
                               ? b.join_tokens({tokens_->last_access, token})
                               : token;
    ++tokens_->loads;
    return Tile<E, S>(tile);
  }

  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(values_.extents[A]);
  }

 private:
  ir::Value* view(ir::Builder& b, pad padding = pad::none) const {
    return b.make_partition_view(values_.tensor_view, [] {
      std::vector<int32_t> dims;
      for (int64_t d : S::dims) dims.push_back(static_cast<int32_t>(d));
      return dims;
    }(), detail::padding_of(padding));
  }
  std::vector<ir::Value*> index(const std::source_location& where) const {
    auto ids = detail::TraceContext::current(where).block_ids(where);
    return std::vector<ir::Value*>(ids.begin(), ids.begin() + rank);
  }

  detail::ArrayValues values_;
  detail::TraceContext::TokenChain* tokens_;
};

}  // namespace cutile
