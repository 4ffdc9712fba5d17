// GELU over a flattened tensor, forward and backward, in TileGym's two forms.
//   formula  approximate 'tanh': gelu(x) = x/2 · (1 + tanh u), u = √(2/π) · (x + 0.044715 x³)
//            approximate 'none': the same with tanh u taken as 2σ(2u) − 1, σ(v) = 1 / (1 + e^−v) —
//            TileGym's "exact" path uses this tanh form of Φ, not erf; it differs from erf's GELU by
//            at most ≈ 5e-4, inside TileGym's tolerance (atol 1e-2)
//            backward: dx = dy · gelu'(x); 'tanh': the derivative of its forward; 'none': Φ̃(x) + x·φ(x)
//            with Φ̃ the forward's tanh-form CDF and φ(x) = e^(−x²/2) / √(2π), as TileGym differentiates
//   E        f32, f16 or bf16; the forward computes in E, as TileGym's does (with f16, cuTile Python's IR
//            is f16 throughout: the same ops at twice f32's throughput, which this compute-bound kernel
//            needs to keep pace); the backward computes in f32, as TileGym's (the cancellation in
//            Φ̃(x) + x·φ(x) near x = −0.75 needs it)
//   TILE     elements per tile block, a power of two (the launcher: 1024; 4096 for forwards of ≥ 2^24
//            elements, as TileGym widens memory-bound launches)
//   runtime  x, dy: (n), any stride, gathered; y, dx: (n), any stride, scattered within the block's
//            (TILE) tile
//   grid     (cdiv(n, TILE), 1, 1); the last tile's overhang gathers 0 and its scatter is masked
// Provenance: TileGym src/tilegym/ops/cutile/activation/gelu.py (1.5.1), `_gelu_kernel` and
// `_gelu_kernel_backward`: gathers and scatters of the block's TILE offsets, TileGym's pointer path
// (sm_90, f16, 'none': the forward is 248 instructions as TileGym's; a tile-space load and store took
// 280). The tile functions here are shared with geglu.hpp (in f32), as TileGym's geglu imports them.
#pragma once

#include <cstdint>

#include "cutile/cutile.hpp"
#include "cutile/op/spec.hpp"

namespace cutile::kernels {

/// TileGym's `approximate` argument, in the order of gelu_approximations.
enum class GeluApprox { none, tanh };

/// The choice of `approximate` that gelu, geglu and their backwards share. Inline, so that it is
/// initialised before the descriptions of every file that includes this one.
inline const op::ChoiceSet gelu_approximations{
    .name = "gelu_approximate",
    .values = {"none", "tanh"},
    .doc = "The GELU form (TileGym's `approximate`) of gelu, geglu and their backwards: see cutile_cpp_gelu.",
};

namespace gelu_math {

inline constexpr double kSqrt2OverPi = 0.7978845608028654;
inline constexpr double kCubic = 0.044715;
inline constexpr double kInvSqrt2Pi = 0.3989422804014327;

// The multiply-adds are fma where cuTile Python fuses TileGym's `a * b + c`, so both round alike. The
// functions compute in their tile's element type T: constants are rounded to T, every op rounds to T.

template <FloatElement T, TileShape S>
Tile<T, S> splat(double v) {
  return broadcast_to<S>(scalar<T>(v));
}

/// u = √(2/π) · (x + 0.044715 x³), associated as each TileGym form writes it.
template <GeluApprox A, FloatElement T, TileShape S>
Tile<T, S> inner(const Tile<T, S>& x) {
  if constexpr (A == GeluApprox::tanh)
    return kSqrt2OverPi * fma(kCubic * x * x, x, x);
  else
    return kSqrt2OverPi * fma(splat<T, S>(kCubic), x * x * x, x);
}

/// tanh u, by the precise tanh ('tanh') or as 2σ(2u) − 1 through exp ('none').
template <GeluApprox A, FloatElement T, TileShape S>
Tile<T, S> tanh_of(const Tile<T, S>& u) {
  if constexpr (A == GeluApprox::tanh)
    return tanh(u);
  else
    return fma(splat<T, S>(2.0), 1.0 / (1.0 + exp(-(2.0 * u))), splat<T, S>(-1.0));
}

template <GeluApprox A, FloatElement T, TileShape S>
Tile<T, S> forward(const Tile<T, S>& x) {
  if constexpr (A == GeluApprox::tanh)
    return 0.5 * x * (1.0 + tanh_of<A>(inner<A>(x)));
  else
    return x * (0.5 * (1.0 + tanh_of<A>(inner<A>(x))));
}

/// d gelu / dx, as TileGym differentiates each form (see the header).
template <GeluApprox A, FloatElement T, TileShape S>
Tile<T, S> derivative(const Tile<T, S>& x) {
  auto t = tanh_of<A>(inner<A>(x));
  if constexpr (A == GeluApprox::tanh) {
    auto d_inner = kSqrt2OverPi * fma(3.0 * kCubic * x, x, splat<T, S>(1.0));
    return fma(splat<T, S>(0.5), 1.0 + t, 0.5 * x * fma(-t, t, splat<T, S>(1.0)) * d_inner);
  } else {
    auto pdf = kInvSqrt2Pi * exp(-(0.5 * (x * x)));
    return fma(splat<T, S>(0.5), 1.0 + t, x * pdf);
  }
}

}  // namespace gelu_math

template <Element E, GeluApprox A, int64_t TILE>
void gelu(Out<E, Shape<TILE>> y, In<E, Shape<dyn>> x) {
  auto [i] = y.tile_index();
  auto offsets = iota<int32_t, TILE>();  // (TILE)
  y.scatter(at(offsets), gelu_math::forward<A>(x.gather(i * TILE + offsets)));
}

template <Element E, GeluApprox A, int64_t TILE>
void gelu_backward(Out<E, Shape<TILE>> dx, In<E, Shape<dyn>> dy, In<E, Shape<dyn>> x) {
  auto [i] = dx.tile_index();
  auto offsets = iota<int32_t, TILE>();                   // (TILE)
  auto dyf = cast<float>(dy.gather(i * TILE + offsets));  // (TILE)
  auto xf = cast<float>(x.gather(i * TILE + offsets));    // (TILE)
  dx.scatter(at(offsets), cast<E>(dyf * gelu_math::derivative<A>(xf)));
}

/// Calls `body.template operator()<A>()` with `approximate` as A: the launchers' form instance.
template <class Body>
void with_gelu_approx(GeluApprox approximate, Body&& body) {
  if (approximate == GeluApprox::tanh) return body.template operator()<GeluApprox::tanh>();
  body.template operator()<GeluApprox::none>();
}

/// The ops (gelu.cpp).
extern const op::OpSpec gelu_op;
extern const op::OpSpec gelu_backward_op;

/// TileGym's widths: tiles of 4096 elements from 2^24 elements on, else 1024.
void launch_gelu(op::Target& target, const AnyTensor& y, const AnyTensor& x, GeluApprox approximate);
/// Tiles of 1024 elements, as TileGym's backward.
void launch_gelu_backward(op::Target& target, const AnyTensor& dx, const AnyTensor& dy, const AnyTensor& x,
                          GeluApprox approximate);

}  // namespace cutile::kernels
