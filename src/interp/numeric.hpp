// Element formats: integer widths and sign extension, rounding of results to the narrow float formats,
// and the bit patterns elements have in memory.
#pragma once

#include <cmath>
#include <cstdint>

#include "cutile/ir/attribute.hpp"
#include "cutile/ir/type.hpp"

namespace cutile::interp {

inline uint64_t bit_mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
inline int64_t sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const int shift = 64 - bits;
  return static_cast<int64_t>(v << shift) >> shift;
}

/// IEEE 754-2019 maximumNumber / minimumNumber: a NaN operand loses, +0 is greater than -0.
inline double max_number(double x, double y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
inline double min_number(double x, double y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) ? x : y;
  return x < y ? x : y;
}

/// Bytes one element occupies in memory (i1: one byte, tf32: four).
int storage_bytes(ir::ElementType e);

/// Rounds `x` into the value set of float type `e`: nearest even, or an IEEE directed mode (zero,
/// negative_inf, positive_inf). Overflow follows the format: infinity where it has one, NaN otherwise
/// (directed modes stop at the largest finite value where IEEE says so).
double round_to(ir::ElementType e, double x);
double round_to(ir::ElementType e, double x, ir::RoundingMode mode);

/// Flushes an f32 subnormal to a zero of the same sign.
double flush_f32(double x);

/// The bit pattern of `x` (representable in float type `e`), and the value of a bit pattern.
uint64_t float_bits(ir::ElementType e, double x);
double float_value(ir::ElementType e, uint64_t bits);

/// Sets the host's rounding direction for the scope, so that double arithmetic rounds like the op asks.
class HostRounding {
 public:
  explicit HostRounding(ir::RoundingMode mode);
  ~HostRounding();
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  int saved_;
  bool changed_;
};

/// True for the four IEEE modes that round_to accepts.
bool is_ieee_mode(ir::RoundingMode mode);

}  // namespace cutile::interp
