// A tensor passed to a RawPtr parameter (params/raw_ptr.hpp), whose kernel sees only its base address:
//
//   cutile::launch(options, kernel, cutile::raw(histogram), x);
//
// The launch treats it as written: it waits for the tensor's pending work, refuses any other argument
// that overlaps it, and records the launch as its last write.
#pragma once

#include "cutile/host/tensor.hpp"

namespace cutile {

template <Element E>
struct Raw {
  Tensor<E> tensor;
};

/// `tensor`'s memory for a RawPtr<E> parameter.
template <Element E>
Raw<E> raw(const Tensor<E>& tensor) {
  return {tensor};
}

}  // namespace cutile
