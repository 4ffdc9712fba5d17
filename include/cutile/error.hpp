// Errors: three classes, one base. Every message says what was expected, what was found and where.
#pragma once

#include <stdexcept>
#include <string>

namespace cutile {

enum class ErrorClass {
  user,      ///< bad input from the caller: shapes, types, aliasing, unsupported dtype or arch
  runtime,   ///< the environment failed: driver, launch, tileiras, files
  internal,  ///< a bug in cutile itself
};

/** Base of every exception cutile throws; `what()` starts with the class prefix. */
class Error : public std::runtime_error {
 public:
  Error(ErrorClass error_class, const std::string& message);
  ErrorClass error_class() const noexcept { return error_class_; }
  /// The message without the class prefix.
  const std::string& message() const noexcept { return message_; }

 private:
  ErrorClass error_class_;
  std::string message_;
};

class UserError : public Error {
 public:
  explicit UserError(const std::string& message) : Error(ErrorClass::user, message) {}
};

class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(ErrorClass::runtime, message) {}
};

class InternalError : public Error {
 public:
  explicit InternalError(const std::string& message) : Error(ErrorClass::internal, message) {}
};

}  // namespace cutile
