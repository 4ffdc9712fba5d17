// Bytecode versions of the cuda_tile dialect (13.1 .. 13.5).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cutile::ir {

struct Version {
  uint8_t major = 13;
  uint8_t minor = 3;
  constexpr auto operator<=>(const Version&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

inline constexpr Version v13_1{13, 1};
inline constexpr Version v13_2{13, 2};
inline constexpr Version v13_3{13, 3};
inline constexpr Version v13_4{13, 4};
inline constexpr Version v13_5{13, 5};

inline constexpr Version kOldestVersion = v13_1;
inline constexpr Version kNewestVersion = v13_5;
/// Written unless the caller asks for another: 13.3 is the first version that can target sm_90.
inline constexpr Version kDefaultVersion = v13_3;

/// Parses "13.3"; nullopt for anything else.
std::optional<Version> parse_version(std::string_view text);

}  // namespace cutile::ir
