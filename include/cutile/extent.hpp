// extent<AXIS>(param): the extent of tensor dimension AXIS of a kernel parameter, as a traced Int (a
// constant when the kernel's shape or the specialisation fixes it).
//
//   cdiv(extent<1>(a), BK)           K tiles of an In<T, Shape<dyn, dyn>> a
//
// The free function is the spelling for kernels: in a function template the member call on a dependent
// parameter needs the `template` keyword (`a.template extent<1>()`), this call does not. It takes an In,
// an Out, an OutTiles or an Atomic; a list has no extents of its own, its members are Ins
// (`extent<0>(as.member(g))`).
#pragma once

#include <cstddef>

#include "cutile/params/atomic.hpp"
#include "cutile/params/in.hpp"
#include "cutile/params/out.hpp"
#include "cutile/params/out_tiles.hpp"

namespace cutile {

template <size_t AXIS, Element E, ShapeType S>
  requires(AXIS < S::rank)
Int extent(const In<E, S>& x) {
  return x.template extent<AXIS>();
}

template <size_t AXIS, Element E, ShapeType S, class O>
  requires(AXIS < S::rank)
Int extent(const Out<E, S, O>& y) {
  return y.template extent<AXIS>();
}

template <size_t AXIS, Element E, ShapeType S, class O>
  requires(AXIS < S::rank)
Int extent(const OutTiles<E, S, O>& y) {
  return y.template extent<AXIS>();
}

template <size_t AXIS, Element E, ShapeType S>
  requires(AXIS < S::rank)
Int extent(const Atomic<E, S>& t) {
  return t.template extent<AXIS>();
}

}  // namespace cutile
