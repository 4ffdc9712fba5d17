// A call of an op that its description refuses: a user error that says which rule it broke, so that the
// C ABI can return the matching status and Python raise the matching exception.
#pragma once

#include <cstdint>
#include <string>

#include "cutile/error.hpp"

namespace cutile::op {

enum class Problem : uint8_t {
  unsupported_dtype,  ///< a dtype the op has no kernel for
  dtype_mismatch,     ///< tensors that must share a dtype do not
  rank_mismatch,
  shape_mismatch,     ///< the op's shape relations do not hold
  unsupported_shape,  ///< valid, but beyond what the op's kernels handle
  aliasing,           ///< a written tensor overlaps another argument or itself
  invalid_argument,   ///< a scalar out of range, a missing tensor, a bad combination
};

class OpError : public UserError {
 public:
  OpError(Problem problem, const std::string& message) : UserError(message), problem_(problem) {}
  Problem problem() const noexcept { return problem_; }

 private:
  Problem problem_;
};

}  // namespace cutile::op
