#include "cutile/ir/float_format.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include "cutile/error.hpp"

namespace cutile::ir {
namespace {

struct Format {
  int exp_bits;
  int man_bits;
  bool has_sign;
  bool has_inf;        // IEEE layout: the top exponent encodes inf (mantissa 0) and NaN
  bool nan_all_ones;   // "FN" layout: only the all-ones pattern (below the sign) is NaN, no inf
  bool no_nan;         // f4E2M1FN: every pattern is a finite number
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
};

Format format_of(ElementType e) {
  switch (e) {
    case ElementType::f16: return {5, 10, true, true, false, false};
    case ElementType::bf16: return {8, 7, true, true, false, false};
    case ElementType::tf32: return {8, 10, true, true, false, false};
    case ElementType::f32: return {8, 23, true, true, false, false};
    case ElementType::f64: return {11, 52, true, true, false, false};
    case ElementType::f8e4m3fn: return {4, 3, true, false, true, false};
    case ElementType::f8e5m2: return {5, 2, true, true, false, false};
    case ElementType::f8e5m3fnu: return {5, 3, false, false, true, false};
    case ElementType::f4e2m1fn: return {2, 1, true, false, false, true};
    case ElementType::f8e8m0fnu: return {8, 0, false, false, true, false};
    default: throw InternalError("not a float element type: " + std::string(element_type_name(e)));
  }
}

// Largest finite magnitude of a format.
double max_finite(const Format& f) {
  int top_exp = (1 << f.exp_bits) - 1;
  uint64_t top_man = (uint64_t{1} << f.man_bits) - 1;
  if (f.has_inf) top_exp -= 1;           // all-ones exponent reserved
  else if (f.nan_all_ones) top_man -= (f.man_bits ? 1 : 0);  // all-ones pattern is NaN
  if (f.nan_all_ones && f.man_bits == 0) top_exp -= 1;       // e8m0: 0xFF is NaN
  const double mantissa = 1.0 + std::ldexp(static_cast<double>(top_man), -f.man_bits);
  return std::ldexp(f.man_bits == 0 ? 1.0 : mantissa, top_exp - f.bias());
}

uint64_t nan_bits(const Format& f) {
  const int width = f.exp_bits + f.man_bits;
  if (f.has_inf) return ((uint64_t{1} << f.exp_bits) - 1) << f.man_bits | (uint64_t{1} << (f.man_bits - 1));
  return (uint64_t{1} << width) - 1;  // all ones below the sign
}

}  // namespace

uint64_t float_to_bits(ElementType e, double value) {
  if (e == ElementType::f64) return std::bit_cast<uint64_t>(value);
  if (e == ElementType::f32) return std::bit_cast<uint32_t>(static_cast<float>(value));
  const Format f = format_of(e);
  const int width = f.exp_bits + f.man_bits;
  const uint64_t sign = (f.has_sign && std::signbit(value)) ? uint64_t{1} << width : 0;
  if (std::isnan(value) || (!f.has_sign && value < 0 && value != 0)) {
    if (f.no_nan) throw UserError("NaN is not representable in " + std::string(element_type_name(e)));
    return sign | nan_bits(f);
  }
  double mag = std::fabs(value);
  const int emin = 1 - f.bias();  // exponent of the smallest normal
  if (f.man_bits == 0) {          // e8m0: a bare power of two, no zero
    if (mag == 0 || std::isinf(mag)) return nan_bits(f);
    int exp = std::ilogb(mag);
    if (mag / std::ldexp(1.0, exp) >= 1.5) exp += 1;
    const int field = exp + f.bias();
    if (field < 0) return 0;
    if (field >= (1 << f.exp_bits) - 1) return nan_bits(f);
    return static_cast<uint64_t>(field);
  }
  if (std::isinf(mag)) {
    if (f.has_inf) return sign | (((uint64_t{1} << f.exp_bits) - 1) << f.man_bits);
    if (f.no_nan) throw UserError("infinity is not representable in " + std::string(element_type_name(e)));
    return sign | nan_bits(f);
  }
  if (mag == 0) return sign;
  const int exp = std::max(std::ilogb(mag), emin);
  const double quantum = std::ldexp(1.0, exp - f.man_bits);
  mag = std::nearbyint(mag / quantum) * quantum;  // round to nearest even in the target precision
  if (mag > max_finite(f)) {
    if (f.has_inf) return sign | (((uint64_t{1} << f.exp_bits) - 1) << f.man_bits);
    if (f.no_nan) return sign | ((uint64_t{1} << width) - 1);  // saturate: no NaN to give
    return sign | nan_bits(f);
  }
  if (mag == 0) return sign;
  const int e2 = std::ilogb(mag);
  if (e2 < emin)  // subnormal
    return sign | static_cast<uint64_t>(std::ldexp(mag, f.man_bits - emin));
  const uint64_t field = static_cast<uint64_t>(e2 + f.bias());
  const uint64_t man = static_cast<uint64_t>(std::ldexp(mag, f.man_bits - e2)) - (uint64_t{1} << f.man_bits);
  return sign | field << f.man_bits | man;
}

double bits_to_float(ElementType e, uint64_t bits) {
  if (e == ElementType::f64) return std::bit_cast<double>(bits);
  if (e == ElementType::f32) return std::bit_cast<float>(static_cast<uint32_t>(bits));
  const Format f = format_of(e);
  const int width = f.exp_bits + f.man_bits;
  const bool negative = f.has_sign && ((bits >> width) & 1);
  const uint64_t field = (bits >> f.man_bits) & ((uint64_t{1} << f.exp_bits) - 1);
  const uint64_t man = bits & ((uint64_t{1} << f.man_bits) - 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const uint64_t all_ones = (uint64_t{1} << width) - 1;
  double mag;
  if (f.man_bits == 0) {
    mag = field == all_ones ? nan : std::ldexp(1.0, static_cast<int>(field) - f.bias());
  } else if (f.has_inf && field == (uint64_t{1} << f.exp_bits) - 1) {
    mag = man == 0 ? std::numeric_limits<double>::infinity() : nan;
  } else if (f.nan_all_ones && (bits & all_ones) == all_ones) {
    mag = nan;
  } else if (field == 0) {
    mag = std::ldexp(static_cast<double>(man), 1 - f.bias() - f.man_bits);
  } else {
    mag = std::ldexp(1.0 + std::ldexp(static_cast<double>(man), -f.man_bits), static_cast<int>(field) - f.bias());
  }
  return negative ? -mag : mag;
}

}  // namespace cutile::ir
