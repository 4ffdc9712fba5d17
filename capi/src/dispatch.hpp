// Runtime dtype → template instance: calls `body(std::type_identity<E>{})` with the cutile element type of
// a dtype the op instantiates.
#pragma once

#include <type_traits>

#include "cutile/element.hpp"
#include "cutile_cpp/kernels.h"
#include "status.hpp"

namespace cutile::capi {

/// For the dtypes f32, f16 and bf16; check_dtypes has refused the others.
template <class Body>
void dispatch_float(cutile_cpp_dtype dtype, Body&& body) {
  switch (dtype) {
    case CUTILE_CPP_F32: return body(std::type_identity<float>{});
    case CUTILE_CPP_F16: return body(std::type_identity<f16>{});
    case CUTILE_CPP_BF16: return body(std::type_identity<bf16>{});
    default: throw AbiError(CUTILE_CPP_ERROR_INTERNAL, "no float instance for dtype code " + std::to_string(dtype));
  }
}

}  // namespace cutile::capi
