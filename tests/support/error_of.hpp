// The message of the cutile error a piece of code throws, for tests that check error texts.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cutile/error.hpp"

namespace cutile::test_support {

/// Runs `body` and returns the message (without the class prefix) of the ErrorType it throws; a test
/// failure, and "", when it throws nothing of that class.
template <class ErrorType = UserError, class Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const ErrorType& error) {
    return error.message();
  }
  ADD_FAILURE() << "no exception of the expected cutile error class";
  return "";
}

}  // namespace cutile::test_support
