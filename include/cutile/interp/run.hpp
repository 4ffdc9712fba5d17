// The CPU interpreter for Tile IR: runs an entry function of a module over a tile grid on host memory,
// checking every memory access. Numerics follow the hardware's storage formats: results of f16, bf16,
// tf32 and f8 types are rounded to nearest even (or the op's rounding mode) as they are produced.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "cutile/ir/module.hpp"

namespace cutile::interp {

/// Host memory a kernel may touch: every pointer access must fall inside one region.
struct MemoryRegion {
  uint64_t address = 0;
  int64_t bytes = 0;
  std::string name;               ///< for messages, e.g. "argument 1 (Out<f32>)"
  bool writable = true;
  /// One byte per memory byte, nonzero = initialised; empty = all initialised. Stores set it;
  /// loads of uninitialised bytes are reported.
  std::span<uint8_t> initialised;
  /// The strided view the region is (extents and strides in elements of `element_size` bytes), for telling
  /// apart views whose spans interleave; empty: every byte of the span is the region's.
  std::span<const int64_t> shape, strides;
  int64_t element_size = 0;
};

struct RunOptions {
  int threads = 0;                ///< 0: std::thread::hardware_concurrency()
  std::ostream* out = nullptr;    ///< where print ops write; nullptr: std::cout
};

/// Runs the entry `entry` of a verified module over `grid` tile blocks on host memory.
/// `params`: one 64-bit slot per entry parameter, in order; a parameter's bits sit in the low bits
/// (i1/i8/i16/i32 zero-extended, f16/bf16/f32 bit patterns, pointers as host addresses).
///
/// Tile blocks run in parallel on `options.threads` threads; ops of one block run in program order,
/// which respects every token order. Atomics are atomic across blocks. What a block prints is buffered
/// and written after the run in block order (x fastest, then y, then z), so output is deterministic
/// and lines of different blocks never interleave.
///
/// Kernel faults (out-of-bounds access, uninitialised read, failed assert, integer division by zero,
/// ...) throw cutile::UserError naming the op, its C++ source location and the tile block; when several
/// blocks fault, the first in block order is reported. An op or type the interpreter does not support
/// throws cutile::UserError before any block runs.
void run(const ir::Module& module, std::string_view entry, std::span<const uint64_t> params,
         std::array<int64_t, 3> grid, std::span<const MemoryRegion> memory, const RunOptions& options = {});

}  // namespace cutile::interp
