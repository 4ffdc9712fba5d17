// Runtime loops. A C++ `if` or `for` on a tile does not compile (tiles have no bool); loops over runtime
// bounds are cutile::loop, whose carried state is explicit and type-checked.
#pragma once

#include <tuple>
#include <type_traits>

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

/// for k in [lower, upper): state = body(k, state); returns the final state. `body` must return the
/// same type as `init`.
template <IndexLike Lower, IndexLike Upper, LoopState State, class Body>
  requires std::is_same_v<std::invoke_result_t<Body, Int, State>, State>
State loop(Lower lower, Upper upper, State init, Body body,
           std::source_location where = std::source_location::current()) {
  ir::Builder& b = detail::trace_at(where);
  Int lo = detail::as_index(lower, where);
  Int hi = detail::as_index(upper, where);
  Int step = detail::as_index(1, where);
  b.set_location(ir::Location::from(where));
  std::vector<ir::Value*> results = b.for_loop(
      lo.value(), hi.value(), step.value(), detail::carried<State>::values(init),
      [&](ir::Builder&, std::span<ir::Value* const> args) {
        detail::TraceContext::NestedRegion nested(detail::TraceContext::current(where));
        State next = body(Int(args[0]), detail::carried<State>::rebuild(args.subspan(1)));
        return detail::carried<State>::values(next);
      });
  return detail::carried<State>::rebuild(results);
}

}  // namespace cutile
