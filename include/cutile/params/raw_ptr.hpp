// Escape hatch: a raw pointer parameter.
//
//   RawPtr<E>   the base address of a tensor's memory and nothing else: no extents, no strides. The kernel
//               reads, writes and atomically updates elements at base + offset (offsets in elements), and
//               nothing checks the offsets.
//
// What it gives up:
//   - bounds: an offset past the memory reaches whatever lies there (the CPU interpreter still refuses
//     it, since it knows the tensor's bytes);
//   - ownership: any block may write any element, so blocks can race;
//   - ordering with the other parameters: a RawPtr is an alias set of its own, so its accesses are
//     ordered among themselves but not with another parameter's.
// The launch still takes it from a tensor (cutile::raw(t), host/raw_arg.hpp): it orders the launch after
// the tensor's pending work, refuses another argument overlapping it, and gives the interpreter its bytes.
// The kernel library counts and justifies every use.
#pragma once

#include <source_location>

#include "cutile/atomic.hpp"
#include "cutile/gather.hpp"
#include "cutile/params/base.hpp"

namespace cutile {

namespace detail {
/// Pointers base + offsets (an integer tile of `shape`, widened to i64), masked by `mask` (null: none).
PointerTile raw_pointer_tile(ir::Builder& b, ir::Value* base, ir::Value* offsets,
                             const std::vector<int64_t>& shape, ir::Value* mask);
}  // namespace detail

template <Element E>
class RawPtr {
 public:
  using element_type = E;

  RawPtr(ir::Value* base, detail::TraceContext::TokenChain& tokens) : base_(base), tokens_(&tokens) {}

  /// The elements at base + offsets.
  template <IndexTile I>
  Tile<E, typename I::shape_type> raw_load(
      const I& offsets, GatherOptions options = {},
      std::source_location where = std::source_location::current()) const {
    return load<typename I::shape_type>(offsets.value(), nullptr, options, where);
  }
  /// The same where `mask` holds; `options.padding` elsewhere.
  template <IndexTile I, TileShape M>
    requires TileShape<common_shape<I, Tile<bool, M>>>
  Tile<E, common_shape<I, Tile<bool, M>>> raw_load(
      const I& offsets, const Tile<bool, M>& mask, GatherOptions options = {},
      std::source_location where = std::source_location::current()) const {
    using R = common_shape<I, Tile<bool, M>>;
    return load<R>(broadcast_to<R>(offsets).value(), broadcast_to<R>(mask).value(), options, where);
  }

  /// Writes `value` (broadcast to the offsets' shape) at base + offsets.
  template <IndexTile I, TileShape V>
    requires TileShape<common_shape<I, Tile<E, V>>>
  void raw_store(const I& offsets, const Tile<E, V>& value, ScatterOptions options = {},
                 std::source_location where = std::source_location::current()) const {
    using R = common_shape<I, Tile<E, V>>;
    store<R>(broadcast_to<R>(offsets).value(), broadcast_to<R>(value).value(), nullptr, options, where);
  }
  /// The same where `mask` holds.
  template <IndexTile I, TileShape V, TileShape M>
    requires TileShape<common_shape<I, Tile<E, V>, Tile<bool, M>>>
  void raw_store(const I& offsets, const Tile<E, V>& value, const Tile<bool, M>& mask,
                 ScatterOptions options = {},
                 std::source_location where = std::source_location::current()) const {
    using R = common_shape<I, Tile<E, V>, Tile<bool, M>>;
    store<R>(broadcast_to<R>(offsets).value(), broadcast_to<R>(value).value(), broadcast_to<R>(mask).value(),
             options, where);
  }

  /// Atomically adds `update` at base + offsets; returns the old values.
  template <IndexTile I, TileShape V>
    requires AtomicAddElement<E> && TileShape<common_shape<I, Tile<E, V>>>
  Tile<E, common_shape<I, Tile<E, V>>> raw_atomic_add(
      const I& offsets, const Tile<E, V>& update, AtomicOptions options = {},
      std::source_location where = std::source_location::current()) const {
    using R = common_shape<I, Tile<E, V>>;
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p =
        detail::raw_pointer_tile(b, base_, broadcast_to<R>(offsets).value(), R::vector(), nullptr);
    auto [old, token] = detail::atomic_rmw(b, p, detail::add_mode<E>(), broadcast_to<R>(update).value(),
                                           options, detail::token_for_store(*tokens_));
    detail::stored(*tokens_, token);
    return Tile<E, R>(old);
  }

 private:
  template <TileShape R>
  Tile<E, R> load(ir::Value* offsets, ir::Value* mask, const GatherOptions& options,
                  const std::source_location& where) const {
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p = detail::raw_pointer_tile(b, base_, offsets, R::vector(), mask);
    auto [tile, token] = detail::masked_load(b, p, options.padding, options.latency,
                                             detail::token_for_load(*tokens_), where, options.ordering);
    detail::loaded(b, *tokens_, token);
    return Tile<E, R>(tile);
  }
  template <TileShape R>
  void store(ir::Value* offsets, ir::Value* value, ir::Value* mask, const ScatterOptions& options,
             const std::source_location& where) const {
    ir::Builder& b = detail::trace_at(where);
    const detail::PointerTile p = detail::raw_pointer_tile(b, base_, offsets, R::vector(), mask);
    detail::stored(
        *tokens_, detail::masked_store(b, p, value, options.latency, detail::token_for_store(*tokens_), where,
                                       options.ordering));
  }

  ir::Value* base_;  // tile<ptr<E>>
  detail::TraceContext::TokenChain* tokens_;
};

}  // namespace cutile
