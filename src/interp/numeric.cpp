#include "interp/numeric.hpp"

#include <array>
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <memory>

#include "cutile/error.hpp"
#include "cutile/ir/float_format.hpp"

namespace cutile::interp {
namespace {

using E = ir::ElementType;
using R = ir::RoundingMode;

struct Format {
  int man_bits;       // explicit mantissa bits
  int emin;           // exponent of the smallest normal
  double max_finite;
  bool has_inf;       // else overflow gives NaN
};

Format format_of(E e) {
  switch (e) {
    case E::f16: return {10, -14, 65504.0, true};
    case E::bf16: return {7, -126, std::ldexp(255.0, 120), true};
    case E::tf32: return {10, -126, std::ldexp(2047.0, 117), true};
    case E::f32: return {23, -126, static_cast<double>(std::numeric_limits<float>::max()), true};
    case E::f8e4m3fn: return {3, -6, 448.0, false};
    case E::f8e5m2: return {2, -14, 57344.0, true};
    default: throw InternalError("round_to: unsupported float element type " + std::string(ir::element_type_name(e)));
  }
}

double overflow_value(const Format& f, double x, R mode) {
  const double inf = f.has_inf ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  const bool negative = x < 0;
  switch (mode) {
    case R::zero: return negative ? -f.max_finite : f.max_finite;
    case R::negative_inf: return negative ? -inf : f.max_finite;
    case R::positive_inf: return negative ? -f.max_finite : inf;
    default: return negative ? -inf : inf;
  }
}

// Rounds by scaling to an integer count of quanta: exact in double for every format here.
double round_scaled(const Format& f, double x, R mode) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return f.has_inf ? x : std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return x;
  const int e = std::max(std::ilogb(x), f.emin);
  const double quantum = std::ldexp(1.0, e - f.man_bits);
  const double s = x / quantum;
  double r;
  switch (mode) {
    case R::zero: r = std::trunc(s); break;
    case R::negative_inf: r = std::floor(s); break;
    case R::positive_inf: r = std::ceil(s); break;
    default: {
      r = std::floor(s);
      const double diff = s - r;
      if (diff > 0.5 || (diff == 0.5 && std::fmod(r, 2.0) != 0)) r += 1;
      break;
    }
  }
  const double out = r * quantum;
  if (std::fabs(out) > f.max_finite) return overflow_value(f, x, mode);
  return out == 0 ? std::copysign(0.0, x) : out;
}

// Nearest even for the normal range by adding half a quantum (minus one when the kept bit is even) to
// the double's bit pattern; the carry moves into the exponent as it should.
double round_nearest(const Format& f, double x) {
  const double mag = std::fabs(x);
  if (!(mag >= std::ldexp(1.0, f.emin)) || std::isinf(mag)) return round_scaled(f, x, R::nearest_even);
  const int shift = 52 - f.man_bits;
  uint64_t b = std::bit_cast<uint64_t>(mag);
  b += (uint64_t{1} << (shift - 1)) - 1 + ((b >> shift) & 1);
  b &= ~((uint64_t{1} << shift) - 1);
  const double out = std::bit_cast<double>(b);
  if (out > f.max_finite) return overflow_value(f, x, R::nearest_even);
  return std::copysign(out, x);
}

const std::array<float, 65536>& f16_table() {
  static const std::unique_ptr<std::array<float, 65536>> table = [] {
    auto t = std::make_unique<std::array<float, 65536>>();
    for (uint32_t b = 0; b < 65536; ++b) (*t)[b] = static_cast<float>(ir::bits_to_float(E::f16, b));
    return t;
  }();
  return *table;
}

}  // namespace

int storage_bytes(E e) {
  switch (e) {
    case E::i1:
    case E::i8:
    case E::f8e4m3fn:
    case E::f8e5m2:
    case E::f8e8m0fnu:
    case E::f8e5m3fnu: return 1;
    case E::i16:
    case E::f16:
    case E::bf16: return 2;
    case E::i32:
    case E::f32:
    case E::tf32: return 4;
    case E::i64:
    case E::f64: return 8;
    default: throw InternalError("no memory layout for element type " + std::string(ir::element_type_name(e)));
  }
}

bool is_ieee_mode(R mode) {
  return mode == R::nearest_even || mode == R::zero || mode == R::negative_inf || mode == R::positive_inf;
}

double round_to(E e, double x) {
  if (e == E::f64) return x;
  if (e == E::f32) return static_cast<double>(static_cast<float>(x));
  return round_nearest(format_of(e), x);
}

double round_to(E e, double x, R mode) {
  if (mode == R::nearest_even) return round_to(e, x);
  if (e == E::f64) return x;
  return round_scaled(format_of(e), x, mode);
}

double flush_f32(double x) {
  return std::fabs(x) < static_cast<double>(std::numeric_limits<float>::min()) ? std::copysign(0.0, x) : x;
}

uint64_t float_bits(E e, double x) {
  switch (e) {
    case E::f64: return std::bit_cast<uint64_t>(x);
    case E::f32:
    case E::tf32: return std::bit_cast<uint32_t>(static_cast<float>(x));
    case E::bf16:
      if (std::isnan(x)) return std::signbit(x) ? 0xFFC0 : 0x7FC0;
      return std::bit_cast<uint32_t>(static_cast<float>(x)) >> 16;
    default: return ir::float_to_bits(e, x);
  }
}

double float_value(E e, uint64_t bits) {
  switch (e) {
    case E::f64: return std::bit_cast<double>(bits);
    case E::f32:
    case E::tf32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case E::bf16: return std::bit_cast<float>(static_cast<uint32_t>(bits & 0xFFFF) << 16);
    case E::f16: return f16_table()[bits & 0xFFFF];
    default: return ir::bits_to_float(e, bits);
  }
}

HostRounding::HostRounding(R mode) : saved_(std::fegetround()), changed_(false) {
  int want = FE_TONEAREST;
  switch (mode) {
    case R::zero: want = FE_TOWARDZERO; break;
    case R::negative_inf: want = FE_DOWNWARD; break;
    case R::positive_inf: want = FE_UPWARD; break;
    default: break;
  }
  if (want != saved_) {
    std::fesetround(want);
    changed_ = true;
  }
}

HostRounding::~HostRounding() {
  if (changed_) std::fesetround(saved_);
}

}  // namespace cutile::interp
