// Tensors that every tile block updates concurrently, only atomically: histograms, counters, split-K
// reductions, locks.
//
//   Atomic<E, Shape<...>>  the whole tensor, shared by all blocks (not partitioned); reads and writes are
//                          atomic read-modify-writes on elements, or atomic reductions of whole tiles
//
// At launch an Atomic takes a Tensor<E>, which may not overlap any other argument. Element-wise atomics
// address elements with `at(...)` as gathers do (out-of-bounds elements are skipped) and return the
// values they replaced; they default to acq_rel ordering at device scope, as cuTile Python's do. The
// tensor is one alias set: its atomics are ordered among themselves in program order by one token chain.
#pragma once

#include <array>
#include <source_location>

#include "cutile/atomic.hpp"
#include "cutile/params/base.hpp"

namespace cutile {

template <Element E, ShapeType S>
class Atomic {
 public:
  static constexpr size_t rank = S::rank;
  using element_type = E;
  using shape_type = S;

  Atomic(detail::ArrayValues values, detail::TraceContext::TokenChain& tokens)
      : values_(std::move(values)), tokens_(&tokens) {}

// Element-wise read-modify-writes: NAME(at(...), update[, mask][, options]) returns the old values
// (unspecified where masked off or out of bounds).
#define CUTILE_ATOMIC_RMW(NAME, CONCEPT, MODE)                                                               \
  template <IndexTile... I, TileShape V>                                                                     \
    requires CONCEPT<E> && (sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, V>>>               \
  Tile<E, common_shape<I..., Tile<E, V>>> NAME(                                                              \
      const At<I...>& at, const Tile<E, V>& update, AtomicOptions options = {},                              \
      std::source_location where = std::source_location::current()) const {                                  \
    using R = common_shape<I..., Tile<E, V>>;                                                                \
    return rmw<R>(MODE, at, broadcast_to<R>(update).value(), nullptr, options, where);                       \
  }                                                                                                          \
  template <IndexTile... I, TileShape V, TileShape M>                                                        \
    requires CONCEPT<E> && (sizeof...(I) == rank) &&                                                         \
             TileShape<common_shape<I..., Tile<E, V>, Tile<bool, M>>>                                        \
  Tile<E, common_shape<I..., Tile<E, V>, Tile<bool, M>>> NAME(                                               \
      const At<I...>& at, const Tile<E, V>& update, const Tile<bool, M>& mask, AtomicOptions options = {},   \
      std::source_location where = std::source_location::current()) const {                                  \
    using R = common_shape<I..., Tile<E, V>, Tile<bool, M>>;                                                 \
    return rmw<R>(MODE, at, broadcast_to<R>(update).value(), broadcast_to<R>(mask).value(), options, where); \
  }

  CUTILE_ATOMIC_RMW(atomic_add, AtomicAddElement, detail::add_mode<E>())
  CUTILE_ATOMIC_RMW(atomic_max, AtomicIntegerElement, ir::AtomicRmwMode::max)
  CUTILE_ATOMIC_RMW(atomic_min, AtomicIntegerElement, ir::AtomicRmwMode::min)
  CUTILE_ATOMIC_RMW(atomic_and, AtomicIntegerElement, ir::AtomicRmwMode::and_)
  CUTILE_ATOMIC_RMW(atomic_or, AtomicIntegerElement, ir::AtomicRmwMode::or_)
  CUTILE_ATOMIC_RMW(atomic_xor, AtomicIntegerElement, ir::AtomicRmwMode::xor_)
  CUTILE_ATOMIC_RMW(atomic_xchg, AtomicElement, ir::AtomicRmwMode::xchg)
#undef CUTILE_ATOMIC_RMW

  /// Compare-and-swap: where an element equals `expected` it becomes `desired`; returns the old values
  /// (equal to `expected` exactly where the swap happened).
  template <IndexTile... I, TileShape X, TileShape D>
    requires AtomicElement<E> &&
             (sizeof...(I) == rank) && TileShape<common_shape<I..., Tile<E, X>, Tile<E, D>>>
  Tile<E, common_shape<I..., Tile<E, X>, Tile<E, D>>> atomic_cas(
      const At<I...>& at, const Tile<E, X>& expected, const Tile<E, D>& desired, AtomicOptions options = {},
      std::source_location where = std::source_location::current()) const {
    using R = common_shape<I..., Tile<E, X>, Tile<E, D>>;
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p = detail::pointer_tile(b, detail::addressing(values_),
                                                       detail::index_values<R>(at), R::vector(), nullptr);
    auto [old, token] =
        detail::atomic_cas(b, p, broadcast_to<R>(expected).value(), broadcast_to<R>(desired).value(), options,
                           detail::token_for_store(*tokens_));
    detail::stored(*tokens_, token);
    return Tile<E, R>(old);
  }

  /// Adds `value` to tile number `tile_index` (in tile units of its shape) element by element, atomically
  /// per element and relaxed (atomic_red_view_tko); elements past the tensor's edge are skipped. The
  /// scope is `block` or `device`.
  template <TileShape T>
    requires AtomicAddElement<E> && (T::rank == rank)
  void atomic_add_tile(std::array<IndexArg, rank> tile_index, const Tile<E, T>& value,
                       memory_scope scope = memory_scope::device,
                       std::source_location where = std::source_location::current()) const {
    reduce_tile(detail::add_mode<E>(), tile_index, value, scope, where);
  }
  template <TileShape T>
    requires AtomicIntegerElement<E> && (T::rank == rank)
  void atomic_max_tile(std::array<IndexArg, rank> tile_index, const Tile<E, T>& value,
                       memory_scope scope = memory_scope::device,
                       std::source_location where = std::source_location::current()) const {
    reduce_tile(ir::AtomicRmwMode::max, tile_index, value, scope, where);
  }
  template <TileShape T>
    requires AtomicIntegerElement<E> && (T::rank == rank)
  void atomic_min_tile(std::array<IndexArg, rank> tile_index, const Tile<E, T>& value,
                       memory_scope scope = memory_scope::device,
                       std::source_location where = std::source_location::current()) const {
    reduce_tile(ir::AtomicRmwMode::min, tile_index, value, scope, where);
  }

  template <size_t A>
    requires(A < rank)
  Int extent() const {
    return Int(values_.extents[A]);
  }

 private:
  template <TileShape R, class... I>
  Tile<E, R> rmw(ir::AtomicRmwMode mode, const At<I...>& at, ir::Value* update, ir::Value* mask,
                 const AtomicOptions& options, const std::source_location& where) const {
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p =
        detail::pointer_tile(b, detail::addressing(values_), detail::index_values<R>(at), R::vector(), mask);
    auto [old, token] = detail::atomic_rmw(b, p, mode, update, options, detail::token_for_store(*tokens_));
    detail::stored(*tokens_, token);
    return Tile<E, R>(old);
  }

  template <TileShape T>
  void reduce_tile(ir::AtomicRmwMode mode, const std::array<IndexArg, rank>& tile_index,
                   const Tile<E, T>& value, memory_scope scope, const std::source_location& where) const {
    ir::Builder& b = detail::trace_at(where);
    std::vector<int32_t> dims;
    for (int64_t d : T::dims) dims.push_back(static_cast<int32_t>(d));
    ir::Value* view = b.make_partition_view(values_.tensor_view, dims);
    std::vector<ir::Value*> idx;
    for (const IndexArg& i : tile_index) idx.push_back(i.value(b));
    detail::stored(*tokens_, detail::atomic_tile(b, view, std::move(idx), value.value(), mode, scope,
                                                 detail::token_for_store(*tokens_), where));
  }

  detail::ArrayValues values_;
  detail::TraceContext::TokenChain* tokens_;
};

}  // namespace cutile
