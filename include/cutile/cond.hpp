// Runtime branches. A C++ `if` on a tile does not compile (tiles have no bool): a branch taken at run time
// is cutile::cond (with results) or cutile::when (without), lowered to Tile IR `if`.
//
// Each branch is a lambda that runs once, while tracing, with the builder inside its region. A tile
// created inside a branch is an SSA value of that region: it is valid only inside the branch, so hand it
// out as the branch's result, never through a captured variable. Outputs are accessed outside branches
// (doing it inside is a UserError for now: their token chains would continue from values of the region).
#pragma once

#include <source_location>
#include <type_traits>

#include "cutile/control.hpp"

namespace cutile {
namespace detail {

template <class T>
struct branch_types;
template <Element E, TileShape S>
struct branch_types<Tile<E, S>> {
  static std::vector<ir::Type> get() { return {tile_ir_type<E, S>()}; }
};
template <class... T>
struct branch_types<std::tuple<T...>> {
  static std::vector<ir::Type> get() {
    std::vector<ir::Type> out;
    (out.push_back(tile_ir_type<typename T::element_type, typename T::shape_type>()), ...);
    return out;
  }
};

}  // namespace detail

/// A branch result: one tile or a std::tuple of tiles (as for loop state).
template <class T>
concept BranchResult = LoopState<T>;

/// condition ? then_fn() : else_fn(), decided at run time; both branches must return the same type.
template <class Then, class Else, class R = std::invoke_result_t<Then>>
  requires BranchResult<R> && std::is_same_v<std::invoke_result_t<Else>, R>
R cond(const Bool& condition, Then then_fn, Else else_fn,
       std::source_location where = std::source_location::current()) {
  ir::Builder& b = detail::trace_at(where);
  auto branch = [&where](auto& fn) {
    return [&fn, &where](ir::Builder&, std::span<ir::Value* const>) {
      detail::TraceContext::NestedRegion nested(detail::TraceContext::current(where));
      return detail::carried<R>::values(fn());
    };
  };
  std::vector<ir::Value*> results =
      b.if_else(condition.value(), detail::branch_types<R>::get(), branch(then_fn), branch(else_fn));
  return detail::carried<R>::rebuild(results);
}

/// Runs fn() only when `condition` holds at run time; fn returns nothing.
template <class Fn>
  requires std::is_void_v<std::invoke_result_t<Fn>>
void when(const Bool& condition, Fn fn, std::source_location where = std::source_location::current()) {
  detail::trace_at(where).if_else(condition.value(), {}, [&fn, &where](ir::Builder&, std::span<ir::Value* const>) {
    detail::TraceContext::NestedRegion nested(detail::TraceContext::current(where));
    fn();
    return std::vector<ir::Value*>{};
  });
}

}  // namespace cutile
