// Debugging from a kernel: print (printf-style, lowered to print_tko) and assert_ (lowered to assert).
#pragma once

#include <concepts>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/tile.hpp"

namespace cutile {
namespace detail {

/// The conversions in a printf-style format: every `%` that does not spell a literal `%%`.
size_t count_format_conversions(std::string_view format);

/// Emits print_tko; a UserError at `where` when the arguments do not match the format's conversions.
void trace_print(std::string_view format, std::vector<ir::Value*> args, const std::source_location& where);

}  // namespace detail

/// A print format with the location of the print call (the location cannot follow the variadic tiles).
struct Format {
  template <class T>
    requires std::convertible_to<const T&, std::string_view>
  Format(const T& format, std::source_location location = std::source_location::current())  // NOLINT: implicit
      : text(format), where(location) {}
  std::string text;
  std::source_location where;
};

/// Prints from every tile block, printf-style: one conversion per tile (`%%` is a literal %), a tile
/// printed whole. Checked when traced: the argument count must match the conversions.
template <Element... E, TileShape... S>
void print(const Format& format, const Tile<E, S>&... tiles) {
  detail::trace_print(format.text, {tiles.value()...}, format.where);
}

/// Traps at run time, with `message`, when any element of `condition` is false.
template <TileShape S>
void assert_(const Tile<bool, S>& condition, const std::string& message,
             std::source_location where = std::source_location::current()) {
  detail::trace_at(where).create(ir::Opcode::assert_, {}, {{condition.value()}},
                                 {{"message", ir::Attribute::string(message)}});
}

}  // namespace cutile
