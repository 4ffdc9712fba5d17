#include "cutile/host/dims.hpp"

#include <string>

#include "cutile/error.hpp"

namespace cutile {

Dims::Dims(std::span<const int64_t> values) {
  if (values.size() > kCapacity)
    throw UserError("rank " + std::to_string(values.size()) + " exceeds the " + std::to_string(kCapacity) +
                    " dims a launch argument can have");
  std::copy(values.begin(), values.end(), values_.begin());
  size_ = values.size();
}

}  // namespace cutile
