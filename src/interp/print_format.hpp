// The text of a print op: a C printf format string with one tile per conversion.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "interp/value.hpp"

namespace cutile::interp {

/// Formats `format` with `args` as printf would, one argument per conversion (`%%` is a literal %). A
/// rank-0 tile prints as its element; a larger tile as "[e0, e1, ...]", nested once per dimension, each
/// element with the conversion's flags, width and precision. Integer conversions of float elements print
/// the value truncated, float conversions of integers print the signed value.
std::string format_print(std::string_view format, std::span<const Array* const> args);

}  // namespace cutile::interp
