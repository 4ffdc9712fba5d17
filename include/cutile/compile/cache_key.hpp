// The cubin cache key, stated in one place.
//
// What a compiled cubin depends on, and so what the key covers:
//   - the Tile IR bytecode, byte for byte — for kernels traced from C++, written without its Debug
//     section: source paths and columns differ between checkouts and compilers, the code does not, and a
//     cache filled ahead of time elsewhere must still match. The front end's specialization facts (element types, tile
//     shapes, static strides, divisibility assumptions, hints) are already written into it, and the
//     bytecode inlines everything the kernel calls, so hashing it covers them all. This relies on the
//     writer being deterministic.
//   - the tileiras options that change its output: gpu_name, opt_level, lineinfo. (timeout and
//     reproducer_root do not.)
//   - kCacheFormatVersion, so that changing this encoding or the disk entry layout orphans old entries.
//
// The tileiras release is deliberately NOT in the key. It is recorded inside each cache entry instead:
//   - on a machine with tileiras, an entry compiled by another release is stale and is recompiled;
//   - on a machine without tileiras (a GPU box running cubins compiled ahead of time elsewhere), the entry
//     is used as is, since there is nothing to compare it with and nothing to recompile with.
// Within one process the in-memory cache uses the same key: the toolchain does not change under it.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <span>
#include <string>

#include "cutile/compile/tileiras.hpp"

namespace cutile::compile {

/// Bumped whenever the key encoding below or the disk entry layout (cubin_cache.hpp) changes.
inline constexpr uint32_t kCacheFormatVersion = 1;

using Sha256Digest = std::array<uint8_t, 32>;

/// SHA-256 of `bytes` (OpenSSL).
Sha256Digest sha256(std::span<const uint8_t> bytes);

/// Lowercase hex of a digest: 64 characters.
std::string to_hex(const Sha256Digest& digest);

struct CacheKey {
  Sha256Digest digest{};

  std::string hex() const { return to_hex(digest); }
  auto operator<=>(const CacheKey&) const = default;
};

/// SHA-256 over a domain tag, then kCacheFormatVersion (u32 LE), then each field as a u64 LE length
/// followed by its bytes: the bytecode, gpu_name, opt_level (i32 LE), lineinfo (one byte 0/1).
/// Length prefixes keep adjacent fields from running into each other.
CacheKey cubin_cache_key(std::span<const uint8_t> bytecode, const CompileOptions& options);

}  // namespace cutile::compile
