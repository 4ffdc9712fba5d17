// A tensor's elements read back to the host as doubles, for comparisons with float64 references.
#pragma once

#include <vector>

#include "cutile/host/tensor.hpp"

namespace cutile::test_support {

template <Element E>
std::vector<double> to_double(const Tensor<E>& t) {
  std::vector<double> out;
  for (const E& v : t.to_host()) out.push_back(from_element(v));
  return out;
}

}  // namespace cutile::test_support
