// The atomic ops that Atomic parameters (params/atomic.hpp) and RawPtr parameters (params/raw_ptr.hpp)
// are updated with: element-wise read-modify-writes and compare-and-swap through pointer tiles, and
// whole-tile atomic reductions through a partition view; their memory orders and element types.
#pragma once

#include <source_location>
#include <utility>
#include <vector>

#include "cutile/gather.hpp"
#include "cutile/memory_ordering.hpp"

namespace cutile {

/// Memory ordering of an atomic (Tile IR's; "weak" is for plain loads and stores only, memory_ordering.hpp).
enum class memory_order { relaxed, acquire, release, acq_rel };

struct AtomicOptions {
  memory_order order = memory_order::acq_rel;
  memory_scope scope = memory_scope::device;
};

/// Element types of atomic exchange and compare-and-swap (32/64-bit).
template <class E>
concept AtomicElement = std::is_same_v<E, int32_t> || std::is_same_v<E, int64_t> ||
                        std::is_same_v<E, float> || std::is_same_v<E, double>;
/// Element types of atomic add: those plus f16 and bf16.
template <class E>
concept AtomicAddElement = AtomicElement<E> || std::is_same_v<E, f16> || std::is_same_v<E, bf16>;
/// Element types of atomic min, max and the bitwise atomics.
template <class E>
concept AtomicIntegerElement = std::is_same_v<E, int32_t> || std::is_same_v<E, int64_t>;

namespace detail {

/// atomic_rmw_tko of `arg` through the masked pointers; returns (old values, token).
std::pair<ir::Value*, ir::Value*> atomic_rmw(ir::Builder& b, const PointerTile& p, ir::AtomicRmwMode mode,
                                             ir::Value* arg, const AtomicOptions& options, ir::Value* token);
/// atomic_cas_tko; returns (old values, token).
std::pair<ir::Value*, ir::Value*> atomic_cas(ir::Builder& b, const PointerTile& p, ir::Value* expected,
                                             ir::Value* desired, const AtomicOptions& options,
                                             ir::Value* token);
/// atomic_red_view_tko relaxed of `value` into tile `index` of `view`; returns the token. A UserError at
/// `where` for the system scope, which the op does not have.
ir::Value* atomic_tile(ir::Builder& b, ir::Value* view, std::vector<ir::Value*> index, ir::Value* value,
                       ir::AtomicRmwMode mode, memory_scope scope, ir::Value* token,
                       const std::source_location& where);

template <Element E>
constexpr ir::AtomicRmwMode add_mode() {
  return element_traits<E>::is_float ? ir::AtomicRmwMode::addf : ir::AtomicRmwMode::add;
}

}  // namespace detail

}  // namespace cutile
