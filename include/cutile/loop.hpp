// Runtime loops. A C++ `if` or `for` on a tile does not compile (tiles have no bool); loops over runtime
// bounds are cutile::loop, whose carried state is explicit and type-checked.
#pragma once

#include <tuple>
#include <type_traits>

#include "cutile/arith.hpp"  // operator! on the loop condition
#include "cutile/tile.hpp"

namespace cutile {
namespace detail {

// Loop-carried state: one tile or a std::tuple of tiles, flattened to IR values and back.
template <class T>
struct carried;
template <Element E, TileShape S>
struct carried<Tile<E, S>> {
  static std::vector<ir::Value*> values(const Tile<E, S>& t) { return {t.value()}; }
  static Tile<E, S> rebuild(std::span<ir::Value* const> v) { return Tile<E, S>(v[0]); }
  static constexpr size_t count = 1;
};
template <class... T>
struct carried<std::tuple<T...>> {
  static std::vector<ir::Value*> values(const std::tuple<T...>& t) {
    std::vector<ir::Value*> out;
    std::apply([&](const auto&... tile) { (out.push_back(tile.value()), ...); }, t);
    return out;
  }
  static std::tuple<T...> rebuild(std::span<ir::Value* const> v) {
    return [&]<size_t... I>(std::index_sequence<I...>) { return std::tuple<T...>(T(v[I])...); }(
        std::index_sequence_for<T...>{});
  }
  static constexpr size_t count = sizeof...(T);
};

inline Int as_index(const Int& i, const std::source_location&) { return i; }
inline Int as_index(int32_t i, const std::source_location& where) {
  return Int(trace_at(where).constant_int(ir::ElementType::i32, i));
}

}  // namespace detail

template <class T>
concept LoopState = requires { detail::carried<T>::count; };

template <class T>
concept IndexLike = std::is_same_v<T, Int> || std::is_integral_v<T>;

namespace detail {

template <LoopState State, class Body>
State counted_loop(const Int& lo, const Int& hi, const Int& step, State init, Body body,
                   const std::source_location& where) {
  using Carried = carried<State>;
  TraceContext& ctx = TraceContext::current(where);
  ir::Builder& b = ctx.at(where);
  auto build = [&](std::span<const TraceContext::ChainUse> uses, std::vector<ir::Value*> carried_values) {
    b.set_location(ir::Location::from(where));
    return b.for_loop(lo.value(), hi.value(), step.value(), std::move(carried_values),
                      [&](ir::Builder&, std::span<ir::Value* const> args) {
                        TraceContext::NestedRegion nested(ctx);
                        TraceContext::set_tokens(uses, args.subspan(1 + Carried::count));
                        State next = body(Int(args[0]), Carried::rebuild(args.subspan(1, Carried::count)));
                        std::vector<ir::Value*> yielded = Carried::values(next);
                        for (ir::Value* token : ctx.tokens_of(uses, ctx.builder())) yielded.push_back(token);
                        return yielded;
                      });
  };
  return Carried::rebuild(with_output_tokens(ctx, b, Carried::values(init), Carried::count, build));
}

}  // namespace detail

/// for k in [lower, upper): state = body(k, state); returns the final state. `body` must return the
/// same type as `init` (a tile or a std::tuple of tiles; std::tuple<> for none). Outputs the body loads
/// or stores have their memory tokens carried through the loop too (the body is traced twice: once to
/// find them).
template <IndexLike Lower, IndexLike Upper, LoopState State, class Body>
  requires std::is_same_v<std::invoke_result_t<Body, Int, State>, State>
State loop(Lower lower, Upper upper, State init, Body body,
           std::source_location where = std::source_location::current()) {
  return detail::counted_loop(detail::as_index(lower, where), detail::as_index(upper, where),
                              detail::as_index(1, where), std::move(init), std::move(body), where);
}

/// for k in [lower, upper) step `step` (positive): state = body(k, state).
template <IndexLike Lower, IndexLike Upper, IndexLike Step, LoopState State, class Body>
  requires std::is_same_v<std::invoke_result_t<Body, Int, State>, State>
State loop(Lower lower, Upper upper, Step step, State init, Body body,
           std::source_location where = std::source_location::current()) {
  return detail::counted_loop(detail::as_index(lower, where), detail::as_index(upper, where),
                              detail::as_index(step, where), std::move(init), std::move(body), where);
}

/// for k in [lower, upper) step `step` (positive): body(k), with no carried state. The body returns
/// nothing: it stores, scatters or updates atomics, and the tokens of what it touches are carried as
/// above.
template <IndexLike Lower, IndexLike Upper, IndexLike Step, class Body>
  requires std::is_void_v<std::invoke_result_t<Body, Int>>
void loop(Lower lower, Upper upper, Step step, Body body,
          std::source_location where = std::source_location::current()) {
  auto stateless = [&](Int k, std::tuple<> none) {
    body(std::move(k));
    return none;
  };
  detail::counted_loop(detail::as_index(lower, where), detail::as_index(upper, where),
                       detail::as_index(step, where), std::tuple<>{}, stateless, where);
}

/// for k in [lower, upper): body(k), with no carried state.
template <IndexLike Lower, IndexLike Upper, class Body>
  requires std::is_void_v<std::invoke_result_t<Body, Int>>
void loop(Lower lower, Upper upper, Body body, std::source_location where = std::source_location::current()) {
  loop(lower, upper, 1, std::move(body), where);
}

/// while cond(state): state = body(state); returns the final state. `cond` maps the state to a Bool,
/// `body` the state to the next one (the same type). Lowered to Tile IR `loop`: the condition is
/// evaluated first in each iteration and a `break` leaves with the state; output tokens are carried as
/// in cutile::loop. A `break` in the middle of a body is this with the rest of the body in `cond`'s
/// complement; a `continue` is a cutile::cond choosing the next state.
template <LoopState State, class Cond, class Body>
  requires std::is_same_v<std::invoke_result_t<Cond, State>, Bool> &&
           std::is_same_v<std::invoke_result_t<Body, State>, State>
State while_(State init, Cond cond, Body body, std::source_location where = std::source_location::current()) {
  using Carried = detail::carried<State>;
  detail::TraceContext& ctx = detail::TraceContext::current(where);
  ir::Builder& b = ctx.at(where);
  auto build = [&](std::span<const detail::TraceContext::ChainUse> uses, std::vector<ir::Value*> carried_values) {
    b.set_location(ir::Location::from(where));
    const std::vector<ir::Type> types = ir::types_of(carried_values);
    return b.loop(std::move(carried_values), types, [&](ir::Builder&, std::span<ir::Value* const> args) {
      detail::TraceContext::NestedRegion nested(ctx);
      detail::TraceContext::set_tokens(uses, args.subspan(Carried::count));
      const State state = Carried::rebuild(args.subspan(0, Carried::count));
      const Bool keep_going = cond(state);
      std::vector<ir::Value*> leaving(args.begin(), args.begin() + Carried::count);
      for (ir::Value* token : ctx.tokens_of(uses, ctx.builder())) leaving.push_back(token);
      ctx.at(where).break_if((!keep_going).value(), std::move(leaving));
      std::vector<ir::Value*> next = Carried::values(body(state));
      for (ir::Value* token : ctx.tokens_of(uses, ctx.builder())) next.push_back(token);
      return next;
    });
  };
  return Carried::rebuild(detail::with_output_tokens(ctx, b, Carried::values(init), Carried::count, build));
}

}  // namespace cutile
