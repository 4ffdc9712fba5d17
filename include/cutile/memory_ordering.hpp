// Memory ordering of plain loads and stores (views and pointer tiles), as Tile IR has it: a load is weak,
// relaxed or acquire, a store weak, relaxed or release. Weak — the default — promises nothing beyond
// this kernel's token chains and carries no scope; the others name the threads the promise is made to.
//
//   flag.load(tile<1>, {0}, acquire(memory_scope::device))   reads after other blocks' released writes
//   out.store(tile, release(memory_scope::device))            publishes the block's earlier writes
//
// An acquire store or a release load does not compile: LoadOrdering and StoreOrdering are made only from
// the orderings their op has.
#pragma once

#include <optional>

#include "cutile/ir/attribute.hpp"

namespace cutile {

/// Which threads an ordering is promised to: this tile block's, the device's, or the whole system's.
enum class memory_scope { block, device, system };

/// The default ordering of a load or store.
struct weak_t {};
inline constexpr weak_t weak{};

/// Orderings with a scope, made by relaxed(scope), acquire(scope), release(scope); the scope is never
/// implied.
struct Relaxed {
  explicit constexpr Relaxed(memory_scope s) : scope(s) {}
  memory_scope scope;
};
struct Acquire {
  explicit constexpr Acquire(memory_scope s) : scope(s) {}
  memory_scope scope;
};
struct Release {
  explicit constexpr Release(memory_scope s) : scope(s) {}
  memory_scope scope;
};
constexpr Relaxed relaxed(memory_scope scope) {
  return Relaxed(scope);
}
constexpr Acquire acquire(memory_scope scope) {
  return Acquire(scope);
}
constexpr Release release(memory_scope scope) {
  return Release(scope);
}

namespace detail {

constexpr ir::MemoryScope ir_scope(memory_scope s) {
  switch (s) {
    case memory_scope::block:
      return ir::MemoryScope::tl_blk;
    case memory_scope::device:
      return ir::MemoryScope::device;
    case memory_scope::system:
      return ir::MemoryScope::sys;
  }
  return ir::MemoryScope::device;
}

/// An ordering as Tile IR writes it: weak without a scope, anything else with one.
class MemoryOrdering {
 public:
  ir::MemoryOrdering ordering() const { return ordering_; }
  std::optional<ir::MemoryScope> scope() const {
    return ordering_ == ir::MemoryOrdering::weak ? std::nullopt : std::optional(ir_scope(scope_));
  }

 protected:
  constexpr MemoryOrdering() = default;
  constexpr MemoryOrdering(ir::MemoryOrdering ordering, memory_scope scope)
      : ordering_(ordering), scope_(scope) {}

 private:
  ir::MemoryOrdering ordering_ = ir::MemoryOrdering::weak;
  memory_scope scope_ = memory_scope::device;
};

}  // namespace detail

/// The ordering of a load: weak (default), relaxed(scope) or acquire(scope).
class LoadOrdering : public detail::MemoryOrdering {
 public:
  constexpr LoadOrdering() = default;
  constexpr LoadOrdering(weak_t) {}  // NOLINT(google-explicit-constructor)
  constexpr LoadOrdering(Relaxed r) : MemoryOrdering(ir::MemoryOrdering::relaxed, r.scope) {}  // NOLINT
  constexpr LoadOrdering(Acquire a) : MemoryOrdering(ir::MemoryOrdering::acquire, a.scope) {}  // NOLINT
  /// A release belongs to stores: a load publishes nothing.
  LoadOrdering(Release) = delete;
};

/// The ordering of a store: weak (default), relaxed(scope) or release(scope).
class StoreOrdering : public detail::MemoryOrdering {
 public:
  constexpr StoreOrdering() = default;
  constexpr StoreOrdering(weak_t) {}  // NOLINT(google-explicit-constructor)
  constexpr StoreOrdering(Relaxed r) : MemoryOrdering(ir::MemoryOrdering::relaxed, r.scope) {}  // NOLINT
  constexpr StoreOrdering(Release r) : MemoryOrdering(ir::MemoryOrdering::release, r.scope) {}  // NOLINT
  /// An acquire belongs to loads: a store observes nothing.
  StoreOrdering(Acquire) = delete;
};

}  // namespace cutile
