// A fault of the kernel being interpreted: a bad memory access, a failed assert, an integer division by
// zero, ... The op evaluators throw it with what went wrong; the executor adds the op, its C++ location and
// the tile block, and turns it into a cutile::UserError.
#pragma once

#include <stdexcept>
#include <string>

namespace cutile::interp {

class Fault : public std::runtime_error {
 public:
  explicit Fault(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace cutile::interp
