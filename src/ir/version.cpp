#include "cutile/ir/version.hpp"

#include <charconv>

namespace cutile::ir {

std::optional<Version> parse_version(std::string_view text) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  unsigned major = 0, minor = 0;
  const char* end = text.data() + text.size();
  auto [p1, e1] = std::from_chars(text.data(), text.data() + dot, major);
  auto [p2, e2] = std::from_chars(text.data() + dot + 1, end, minor);
  if (e1 != std::errc() || e2 != std::errc() || p1 != text.data() + dot || p2 != end) return std::nullopt;
  if (major > 255 || minor > 255) return std::nullopt;
  return Version{static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
}

}  // namespace cutile::ir
