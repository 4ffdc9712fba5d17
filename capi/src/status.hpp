// Status codes across the C boundary: a failed check throws AbiError, and `guarded` turns it, and every
// other exception, into a code plus the thread's last-error message.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "cutile_cpp/kernels.h"

namespace cutile::capi {

class AbiError {
 public:
  AbiError(cutile_cpp_status status, std::string message) : status_(status), message_(std::move(message)) {}
  cutile_cpp_status status() const { return status_; }
  const std::string& message() const { return message_; }

 private:
  cutile_cpp_status status_;
  std::string message_;
};

/// Sets the calling thread's last-error message and returns `status`.
int32_t fail(cutile_cpp_status status, std::string message);
/// Clears the last-error message and returns CUTILE_CPP_OK.
int32_t succeed();

/// Runs `body` for the op named `op` and returns its status. An AbiError keeps its own status; cutile's
/// errors become INVALID_ARGUMENT (user), RUNTIME (runtime) or INTERNAL (internal); anything else
/// INTERNAL. Every message starts with `op`.
template <class Body>
int32_t guarded(const char* op, Body&& body) noexcept;

int32_t translate_current_exception(const char* op) noexcept;

template <class Body>
int32_t guarded(const char* op, Body&& body) noexcept {
  try {
    body();
    return succeed();
  } catch (...) {
    return translate_current_exception(op);
  }
}

}  // namespace cutile::capi
