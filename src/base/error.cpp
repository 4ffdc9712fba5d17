#include "cutile/error.hpp"

namespace cutile {
namespace {

const char* prefix(ErrorClass error_class) {
  switch (error_class) {
    case ErrorClass::user: return "cutile user error: ";
    case ErrorClass::runtime: return "cutile runtime error: ";
    case ErrorClass::internal: return "cutile internal error: ";
  }
  return "cutile error: ";
}

}  // namespace

Error::Error(ErrorClass error_class, const std::string& message)
    : std::runtime_error(prefix(error_class) + message), error_class_(error_class), message_(message) {}

}  // namespace cutile
