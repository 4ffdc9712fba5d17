// One point of an op's tuning space: a value for some of its tunables (OpSpec::tuning), which the
// launcher reads with Target::tuned. Written "occupancy=8 TILE_N=128".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cutile::op {

struct Choice {
  std::vector<std::pair<std::string, int64_t>> values;

  /// The value chosen for `tunable`, if any.
  std::optional<int64_t> value(std::string_view tunable) const {
    for (const auto& [name, v] : values)
      if (name == tunable) return v;
    return std::nullopt;
  }
  /// "occupancy=8 TILE_N=128"; "default" when nothing is chosen.
  std::string text() const {
    if (values.empty()) return "default";
    std::string s;
    for (const auto& [name, v] : values) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(v);
    return s;
  }
  friend bool operator==(const Choice&, const Choice&) = default;
};

}  // namespace cutile::op
