// Runtime branches. A C++ `if` on a tile does not compile (tiles have no bool): a branch taken at run time
// is cutile::cond (with results) or cutile::when (without), lowered to Tile IR `if`.
//
// Each branch is a lambda that runs once, while tracing, with the builder inside its region. A tile
// created inside a branch is an SSA value of that region: it is valid only inside the branch, so hand it
// out as the branch's result, never through a captured variable. Outputs may be loaded and stored in
// branches: their memory tokens become branch results (the branches are traced twice: once to find them).
#pragma once

#include <functional>
#include <source_location>
#include <type_traits>

#include "cutile/loop.hpp"

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

namespace detail {
// Both branches of a Tile IR `if`, with the memory tokens of the outputs they access as extra results.
// `then_fn` and `else_fn` return the user's values (a vector of IR values, possibly empty); `else_fn` is
// null for a `when`, which gets an else region only to pass tokens on.
template <class Then>
std::vector<ir::Value*> branch(const Bool& condition, std::vector<ir::Type> result_types, Then then_fn,
                               const std::function<std::vector<ir::Value*>()>& else_fn,
                               const std::source_location& where) {
  TraceContext& ctx = TraceContext::current(where);
  ir::Builder& b = ctx.at(where);
  const size_t user_results = result_types.size();
  // `entry_tokens`: the chains' tokens before the `if`, from which each arm starts.
  auto build = [&](std::span<const TraceContext::ChainUse> uses, std::vector<ir::Value*> entry_tokens) {
    auto arm = [&](auto& fn) {
      return [&](ir::Builder&, std::span<ir::Value* const>) {
        TraceContext::NestedRegion nested(ctx);
        TraceContext::set_tokens(uses, entry_tokens);
        std::vector<ir::Value*> yielded = fn();
        for (ir::Value* token : ctx.tokens_of(uses, ctx.builder())) yielded.push_back(token);
        return yielded;
      };
    };
    std::vector<ir::Type> types = result_types;
    types.resize(user_results + TraceContext::token_count(uses), ir::Type::token());
    b.set_location(ir::Location::from(where));
    const std::function<std::vector<ir::Value*>()> nothing = [] { return std::vector<ir::Value*>{}; };
    if (types.empty() && !else_fn) return b.if_else(condition.value(), {}, arm(then_fn));
    return b.if_else(condition.value(), std::move(types), arm(then_fn), arm(else_fn ? else_fn : nothing));
  };
  return with_output_tokens(ctx, b, {}, user_results, build);
}
}  // namespace detail

/// condition ? then_fn() : else_fn(), decided at run time; both branches must return the same type.
template <class Then, class Else, class R = std::invoke_result_t<Then>>
  requires BranchResult<R> && std::is_same_v<std::invoke_result_t<Else>, R>
R cond(const Bool& condition, Then then_fn, Else else_fn,
       std::source_location where = std::source_location::current()) {
  std::vector<ir::Value*> results = detail::branch(
      condition, detail::branch_types<R>::get(), [&] { return detail::carried<R>::values(then_fn()); },
      [&] { return detail::carried<R>::values(else_fn()); }, where);
  return detail::carried<R>::rebuild(results);
}

/// Runs fn() only when `condition` holds at run time; fn returns nothing.
template <class Fn>
  requires std::is_void_v<std::invoke_result_t<Fn>>
void when(const Bool& condition, Fn fn, std::source_location where = std::source_location::current()) {
  detail::branch(
      condition, {},
      [&] {
        fn();
        return std::vector<ir::Value*>{};
      },
      nullptr, where);
}

}  // namespace cutile
