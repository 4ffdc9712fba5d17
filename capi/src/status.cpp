#include "status.hpp"

#include <exception>
#include <new>

#include "cutile/error.hpp"
#include "cutile/op/error.hpp"

namespace cutile::capi {
namespace {

thread_local std::string last_error;

cutile_cpp_status status_of(cutile::op::Problem problem) {
  using cutile::op::Problem;
  switch (problem) {
    case Problem::unsupported_dtype: return CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE;
    case Problem::dtype_mismatch: return CUTILE_CPP_ERROR_DTYPE_MISMATCH;
    case Problem::rank_mismatch: return CUTILE_CPP_ERROR_RANK_MISMATCH;
    case Problem::shape_mismatch: return CUTILE_CPP_ERROR_SHAPE_MISMATCH;
    case Problem::unsupported_shape: return CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE;
    case Problem::aliasing: return CUTILE_CPP_ERROR_ALIASING;
    case Problem::invalid_argument: return CUTILE_CPP_ERROR_INVALID_ARGUMENT;
  }
  return CUTILE_CPP_ERROR_INVALID_ARGUMENT;
}

}  // namespace

int32_t fail(cutile_cpp_status status, std::string message) {
  try {
    last_error = std::move(message);
  } catch (...) {
    last_error.clear();  // out of memory for the message: the code still tells what failed
  }
  return status;
}

int32_t succeed() {
  last_error.clear();
  return CUTILE_CPP_OK;
}

int32_t translate_current_exception(const char* op) noexcept {
  const std::string prefix = std::string(op) + ": ";
  try {
    throw;
  } catch (const AbiError& e) {
    return fail(e.status(), prefix + e.message());
  } catch (const cutile::op::OpError& e) {
    return fail(status_of(e.problem()), prefix + e.message());
  } catch (const cutile::UserError& e) {
    return fail(CUTILE_CPP_ERROR_INVALID_ARGUMENT, prefix + e.message());
  } catch (const cutile::RuntimeError& e) {
    return fail(CUTILE_CPP_ERROR_RUNTIME, prefix + e.message());
  } catch (const cutile::Error& e) {
    return fail(CUTILE_CPP_ERROR_INTERNAL, prefix + "internal error: " + e.message());
  } catch (const std::bad_alloc&) {
    return fail(CUTILE_CPP_ERROR_RUNTIME, prefix + "out of host memory");
  } catch (const std::exception& e) {
    return fail(CUTILE_CPP_ERROR_INTERNAL, prefix + "internal error: " + e.what());
  } catch (...) {
    return fail(CUTILE_CPP_ERROR_INTERNAL, prefix + "internal error: an unknown exception");
  }
}

}  // namespace cutile::capi

extern "C" {

const char* cutile_cpp_last_error(void) { return cutile::capi::last_error.c_str(); }

int32_t cutile_cpp_abi_version(void) { return CUTILE_CPP_ABI_VERSION; }

int32_t cutile_cpp_tensor_size(void) { return static_cast<int32_t>(sizeof(cutile_cpp_tensor)); }

const char* cutile_cpp_status_name(int32_t status) {
  switch (status) {
#define CUTILE_CPP_STATUS_NAME(S) \
  case S:                         \
    return #S;
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_OK)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_NULL_POINTER)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_INVALID_DESCRIPTOR)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_UNSUPPORTED_DTYPE)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_DTYPE_MISMATCH)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_RANK_MISMATCH)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_SHAPE_MISMATCH)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_UNSUPPORTED_SHAPE)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_DEVICE_MISMATCH)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_ALIASING)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_INVALID_ARGUMENT)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_DEVICE_UNAVAILABLE)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_INVALID_POINTER)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_INVALID_STREAM)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_RUNTIME)
    CUTILE_CPP_STATUS_NAME(CUTILE_CPP_ERROR_INTERNAL)
#undef CUTILE_CPP_STATUS_NAME
  }
  return "unknown status";
}

}  // extern "C"
