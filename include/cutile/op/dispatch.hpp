// From runtime values to template instances, for launchers: a tensor's element type to the kernel's
// element, a size to the power-of-two tile that holds it, a flag to a bool and an index to a candidate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "cutile/element.hpp"
#include "cutile/error.hpp"

namespace cutile::op {

/// Calls `body.template operator()<E>()` for the E of `Es` whose element type is `element`; an
/// InternalError for any other (the description's dtype checks refuse those first).
template <Element... Es, class Body>
void with_element(ir::ElementType element, Body&& body) {
  const bool found = ((element == ir_element<Es> ? (body.template operator()<Es>(), true) : false) || ...);
  if (!found)
    throw InternalError("no kernel instance for element type " + std::string(ir::element_type_name(element)));
}

/// The float elements f32, f16 and bf16: kFloatDtypes.
template <class Body>
void with_float_element(ir::ElementType element, Body&& body) {
  with_element<float, f16, bf16>(element, std::forward<Body>(body));
}

/// Calls `body.template operator()<T>()` with the smallest power of two T >= `want` in [MIN, MAX], or
/// MAX when `want` is larger: one instance per power of two, chosen at run time.
template <int64_t MIN, int64_t MAX, class Body>
void with_pow2(int64_t want, Body&& body) {
  static_assert(MIN > 0 && (MIN & (MIN - 1)) == 0 && MIN <= MAX,
                "with_pow2: MIN must be a power of two <= MAX");
  if constexpr (MIN < MAX) {
    if (want > MIN) return with_pow2<MIN * 2, MAX>(want, std::forward<Body>(body));
  }
  body.template operator()<MIN>();
}

/// Calls `body.template operator()<B>()` with B == `flag`; nest calls for several flags.
template <class Body>
void with_flag(bool flag, Body&& body) {
  flag ? body.template operator()<true>() : body.template operator()<false>();
}

/// Calls `body.template operator()<I>()` with I == `index`, for an index into a constexpr array of N
/// candidates (tile shapes); an InternalError past it (the description's valid_when refuses those first).
template <size_t N, class Body>
void with_index(size_t index, Body&& body) {
  if (index >= N)
    throw InternalError("candidate index " + std::to_string(index) + " is not below " + std::to_string(N));
  [&]<size_t... I>(std::index_sequence<I...>) {
    ((index == I ? (body.template operator()<I>(), 0) : 0), ...);
  }
  (std::make_index_sequence<N>{});
}

}  // namespace cutile::op
