// Source locations carried by IR ops: the C++ line that produced the op.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace cutile::ir {

struct Location {
  std::string file;      ///< empty: unknown
  uint32_t line = 0;
  uint32_t column = 0;

  static Location from(const std::source_location& loc) {
    return {loc.file_name(), static_cast<uint32_t>(loc.line()), static_cast<uint32_t>(loc.column())};
  }
  bool known() const { return !file.empty(); }
  /// "file:line:col", or "<unknown location>".
  std::string str() const {
    return known() ? file + ":" + std::to_string(line) + ":" + std::to_string(column) : "<unknown location>";
  }
  bool operator==(const Location&) const = default;
};

}  // namespace cutile::ir
