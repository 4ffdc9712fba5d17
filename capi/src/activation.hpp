// What the activation ops' C entry points share: the power-of-two tile instance for a row width, the
// GELU form argument, and the views of an (M, 2H) tensor as its two halves.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "activation/gelu.hpp"
#include "cutile/host/tensor.hpp"
#include "descriptor.hpp"
#include "status.hpp"

namespace cutile::capi::activation {

/// Calls `body(std::integral_constant<int64_t, T>{})` with the smallest instantiated power of two
/// T ≥ `want`, T in [MIN, MAX] (MAX when `want` is wider: the row then takes several tiles).
template <int64_t MIN, int64_t MAX, class Body>
void with_pow2_tile(int64_t want, Body&& body) {
  if constexpr (MIN < MAX) {
    if (want > MIN) return with_pow2_tile<MIN * 2, MAX>(want, std::forward<Body>(body));
  }
  body(std::integral_constant<int64_t, MIN>{});
}

/// CUTILE_CPP_GELU_NONE / CUTILE_CPP_GELU_TANH as the kernels' form; anything else INVALID_ARGUMENT.
inline kernels::GeluApprox gelu_approx(int32_t approximate) {
  switch (approximate) {
    case CUTILE_CPP_GELU_NONE:
      return kernels::GeluApprox::none;
    case CUTILE_CPP_GELU_TANH:
      return kernels::GeluApprox::tanh;
    default:
      throw AbiError(CUTILE_CPP_ERROR_INVALID_ARGUMENT,
                     "approximate is " + std::to_string(approximate) +
                         "; expected CUTILE_CPP_GELU_NONE (0) or CUTILE_CPP_GELU_TANH (1)");
  }
}

/// SHAPE_MISMATCH unless `half` is (M, H) and `whole` (M, 2H).
inline void check_half_of(const CheckedTensor& half, const CheckedTensor& whole) {
  if (half.shape[0] != whole.shape[0] || 2 * half.shape[1] != whole.shape[1])
    throw AbiError(CUTILE_CPP_ERROR_SHAPE_MISMATCH, half.describe() + " must be (M, H) for " +
                                                        whole.describe() +
                                                        " of (M, 2H): the same rows and half the columns");
}

/// The halves x[:, :H] and x[:, H:] of an (M, 2H) tensor, as (M, H) views.
template <Element E>
std::pair<Tensor<E>, Tensor<E>> halves(const Tensor<E>& x) {
  const int64_t m = x.shape()[0], h = x.shape()[1] / 2;
  const std::vector<int64_t> strides = x.strides();
  return {x.as_strided({m, h}, strides, 0), x.as_strided({m, h}, strides, h * strides[1])};
}

/// An (M, 2H) tensor as (M, 2, H): [r, k, c] is x[r, k·H + c].
template <Element E>
Tensor<E> as_half_pairs(const Tensor<E>& x) {
  const int64_t m = x.shape()[0], h = x.shape()[1] / 2;
  return x.as_strided({m, 2, h}, {x.strides()[0], h * x.strides()[1], x.strides()[1]});
}

}  // namespace cutile::capi::activation
