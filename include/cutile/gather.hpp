// Element-wise addressing: `x.gather(at(rows, cols))` reads x[rows[k], cols[k]] for every element k of
// the broadcast index tiles, as cuTile Python's ct.gather does. The index tiles become a tile of pointers
// (base + Σ index_d · stride_d, in 64-bit arithmetic), out-of-bounds elements are masked off (an index is
// compared unsigned against its extent, so negative indices are out of bounds too) and read a padding
// value. Scatters and atomics use the same pointer tiles.
#pragma once

#include <optional>
#include <source_location>
#include <tuple>
#include <vector>

#include "cutile/memory_ordering.hpp"
#include "cutile/shape.hpp"
#include "cutile/tile.hpp"

namespace cutile {

template <class T>
concept IndexTile = TileType<T> && IntegerElement<typename T::element_type> &&
                    !std::is_same_v<typename T::element_type, bool>;

/// One index tile per tensor dimension, in the tensor's dimension order; made by cutile::at.
template <IndexTile... I>
struct At {
  std::tuple<I...> indices;
};

/// `at(rows, cols)`: the element coordinates of a gather, scatter or atomic, one integer tile per
/// dimension; their shapes broadcast to the shape of the result.
template <IndexTile... I>
At<I...> at(const I&... indices) {
  return At<I...>{std::tuple<I...>(indices...)};
}

namespace detail {
// Folds numpy broadcasting over several shapes; a dim that does not broadcast becomes -2 and stays so,
// which makes the result fail TileShape.
template <class... S>
struct broadcast_all;
template <class S>
struct broadcast_all<S> {
  using type = S;
};
template <class A, class B, class... Rest>
struct broadcast_all<A, B, Rest...> {
  using type = typename broadcast_all<typename shape_from_array<broadcast_dims<A, B>()>::type, Rest...>::type;
};
}  // namespace detail

/// The shape the index tiles (and masks, values) broadcast to; not a TileShape when they do not broadcast.
template <class... T>
using common_shape = typename detail::broadcast_all<typename T::shape_type...>::type;

/// Options of a gather: the value of masked-off elements, the latency hint (1..10) and the memory
/// ordering of the load (weak, relaxed(scope) or acquire(scope)).
struct GatherOptions {
  double padding = 0;
  std::optional<int> latency;
  LoadOrdering ordering;
};

/// Options of a scatter: the latency hint (1..10) and the memory ordering of the store (weak,
/// relaxed(scope) or release(scope)).
struct ScatterOptions {
  std::optional<int> latency;
  StoreOrdering ordering;
};

namespace detail {

/// How index tiles address a tensor. Per index dim: the tensor's extent and stride (scalar i32 values),
/// optionally an origin added to the index and a limit the index itself must stay below (a scatter
/// confined to one tile: index in [0, limit), origin = the tile's first element).
struct Addressing {
  ir::Value* base = nullptr;  ///< tile<ptr<E>>
  std::vector<ir::Value*> extents, strides;
  std::vector<ir::Value*> origins;  ///< empty: none
  std::vector<int64_t> limits;      ///< empty: none
};

struct PointerTile {
  ir::Value* pointers;  ///< tile<shape x ptr<E>>
  ir::Value* mask;      ///< tile<shape x i1>: the element is in bounds (and the user's mask)
};

/// Pointers for `indices` (one integer tile of `shape` per dim, any integer type), with the bounds mask
/// AND-ed with `user_mask` when one is given.
PointerTile pointer_tile(ir::Builder& b, const Addressing& a, const std::vector<ir::Value*>& indices,
                         const std::vector<int64_t>& shape, ir::Value* user_mask);

/// load_ptr_tko (weak unless `ordering` says otherwise) of the masked pointers with a splat `padding` of
/// the pointee type.
std::pair<ir::Value*, ir::Value*> masked_load(ir::Builder& b, const PointerTile& p, double padding,
                                              std::optional<int> latency, ir::Value* token,
                                              const std::source_location& where,
                                              const LoadOrdering& ordering = {});
/// store_ptr_tko (weak unless `ordering` says otherwise) of `value` through the masked pointers; returns
/// the token.
ir::Value* masked_store(ir::Builder& b, const PointerTile& p, ir::Value* value, std::optional<int> latency,
                        ir::Value* token, const std::source_location& where,
                        const StoreOrdering& ordering = {});

/// The IR values of an At's index tiles, each broadcast to R.
template <TileShape R, class... I>
std::vector<ir::Value*> index_values(const At<I...>& at) {
  return std::apply([](const auto&... i) { return std::vector<ir::Value*>{broadcast_to<R>(i).value()...}; },
                    at.indices);
}

}  // namespace detail
}  // namespace cutile
