// Float results are computed in double and rounded into the result type, so f16/bf16/f32 results are
// correctly rounded. Ops whose hardware versions are approximations (approx/full rounding, transcendental
// functions) are evaluated to double precision and rounded: at least as exact as the hardware.
#include "interp/elementwise.hpp"

#include <cmath>
#include <limits>

#include "cutile/error.hpp"
#include "interp/fault.hpp"
#include "interp/numeric.hpp"

namespace cutile::interp {
namespace {

using E = ir::ElementType;
using O = ir::Opcode;
using R = ir::RoundingMode;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Applies f to every element; a one-element operand is read for every element.
template <class Out, class A, class F>
void map1(std::vector<Out>& out, const std::vector<A>& a, F f) {
  const size_t n = out.size();
  if (a.size() == n) {
    for (size_t k = 0; k < n; ++k) out[k] = f(a[k]);
  } else {
    const A v = a[0];
    for (size_t k = 0; k < n; ++k) out[k] = f(v);
  }
}

template <class Out, class A, class B, class F>
void map2(std::vector<Out>& out, const std::vector<A>& a, const std::vector<B>& b, F f) {
  const size_t n = out.size();
  if (a.size() == n && b.size() == n) {
    for (size_t k = 0; k < n; ++k) out[k] = f(a[k], b[k]);
  } else {
    const size_t sa = a.size() == n ? 1 : 0, sb = b.size() == n ? 1 : 0;
    for (size_t k = 0; k < n; ++k) out[k] = f(a[k * sa], b[k * sb]);
  }
}

template <class Out, class A, class B, class C, class F>
void map3(std::vector<Out>& out, const std::vector<A>& a, const std::vector<B>& b, const std::vector<C>& c, F f) {
  const size_t n = out.size();
  const size_t sa = a.size() == n ? 1 : 0, sb = b.size() == n ? 1 : 0, sc = c.size() == n ? 1 : 0;
  for (size_t k = 0; k < n; ++k) out[k] = f(a[k * sa], b[k * sb], c[k * sc]);
}

Array result_for(const ir::Operation& op, std::span<const Array* const> operands) {
  const Array* largest = operands[0];
  for (const Array* a : operands)
    if (a->size() > largest->size()) largest = a;
  return make_array(op.result(0)->type().element(), largest->shape);
}

R rounding_of(const ir::Operation& op, std::string_view attr = "rounding_mode") {
  if (!op.spec().find_attr(attr)) return R::nearest_even;
  const R mode = static_cast<R>(op.enum_attr_or_default(attr));
  // approx and full name hardware approximations; the exact result stands in for them.
  return is_ieee_mode(mode) ? mode : R::nearest_even;
}

int int_bits(const Array& a) { return ir::element_bits(a.element); }

Array float_unary(const ir::Operation& op, const Array& x, Array out) {
  const E e = out.element;
  const bool ftz = e == E::f32 && op.has_attr("flush_to_zero");
  const R mode = rounding_of(op);
  double (*fn)(double) = nullptr;
  switch (op.opcode()) {
    case O::absf: fn = [](double v) { return std::fabs(v); }; break;
    case O::negf: fn = [](double v) { return -v; }; break;
    case O::ceil: fn = [](double v) { return std::ceil(v); }; break;
    case O::floor: fn = [](double v) { return std::floor(v); }; break;
    case O::exp: fn = [](double v) { return std::exp(v); }; break;
    case O::exp2: fn = [](double v) { return std::exp2(v); }; break;
    case O::log: fn = [](double v) { return std::log(v); }; break;
    case O::log2: fn = [](double v) { return std::log2(v); }; break;
    case O::sqrt: fn = [](double v) { return std::sqrt(v); }; break;
    case O::rsqrt: fn = [](double v) { return 1.0 / std::sqrt(v); }; break;
    case O::sin: fn = [](double v) { return std::sin(v); }; break;
    case O::cos: fn = [](double v) { return std::cos(v); }; break;
    case O::tan: fn = [](double v) { return std::tan(v); }; break;
    case O::sinh: fn = [](double v) { return std::sinh(v); }; break;
    case O::cosh: fn = [](double v) { return std::cosh(v); }; break;
    case O::tanh: fn = [](double v) { return std::tanh(v); }; break;
    default: throw InternalError("float_unary: " + std::string(op.spec().mnemonic));
  }
  HostRounding host(mode);
  map1(out.f, x.f, [&](double v) {
    if (ftz) v = flush_f32(v);
    const double r = round_to(e, fn(v), mode);
    return ftz ? flush_f32(r) : r;
  });
  return out;
}

Array float_binary(const ir::Operation& op, const Array& a, const Array& b, Array out) {
  const E e = out.element;
  const bool ftz = e == E::f32 && op.has_attr("flush_to_zero");
  const R mode = rounding_of(op);
  double (*fn)(double, double) = nullptr;
  switch (op.opcode()) {
    case O::addf: fn = [](double x, double y) { return x + y; }; break;
    case O::subf: fn = [](double x, double y) { return x - y; }; break;
    case O::mulf: fn = [](double x, double y) { return x * y; }; break;
    case O::divf: fn = [](double x, double y) { return x / y; }; break;
    case O::remf: fn = [](double x, double y) { return std::fmod(x, y); }; break;
    case O::pow: fn = [](double x, double y) { return std::pow(x, y); }; break;
    case O::atan2: fn = [](double x, double y) { return std::atan2(x, y); }; break;
    case O::maxf:
      fn = op.has_attr("propagate_nan")
               ? +[](double x, double y) { return std::isnan(x) || std::isnan(y) ? kNaN : max_number(x, y); }
               : +[](double x, double y) { return max_number(x, y); };
      break;
    case O::minf:
      fn = op.has_attr("propagate_nan")
               ? +[](double x, double y) { return std::isnan(x) || std::isnan(y) ? kNaN : min_number(x, y); }
               : +[](double x, double y) { return min_number(x, y); };
      break;
    default: throw InternalError("float_binary: " + std::string(op.spec().mnemonic));
  }
  HostRounding host(mode);
  if (!ftz && mode == R::nearest_even && e == E::f32 && op.opcode() == O::addf) {
    map2(out.f, a.f, b.f, [](double x, double y) { return static_cast<double>(static_cast<float>(x + y)); });
    return out;
  }
  map2(out.f, a.f, b.f, [&](double x, double y) {
    if (ftz) {
      x = flush_f32(x);
      y = flush_f32(y);
    }
    const double r = round_to(e, fn(x, y), mode);
    return ftz ? flush_f32(r) : r;
  });
  return out;
}

Array fma(const ir::Operation& op, const Array& a, const Array& b, const Array& c, Array out) {
  const E e = out.element;
  const bool ftz = e == E::f32 && op.has_attr("flush_to_zero");
  const R mode = rounding_of(op);
  HostRounding host(mode);
  map3(out.f, a.f, b.f, c.f, [&](double x, double y, double z) {
    if (ftz) {
      x = flush_f32(x);
      y = flush_f32(y);
      z = flush_f32(z);
    }
    // f32 uses the host's single-rounding fmaf; narrower types round the double fma once more.
    const double r = e == E::f32 ? static_cast<double>(std::fmaf(static_cast<float>(x), static_cast<float>(y),
                                                                 static_cast<float>(z)))
                                 : round_to(e, std::fma(x, y, z), mode);
    return ftz ? flush_f32(r) : r;
  });
  return out;
}

bool compare(ir::ComparisonPredicate p, auto x, auto y) {
  using P = ir::ComparisonPredicate;
  switch (p) {
    case P::equal: return x == y;
    case P::not_equal: return x != y;
    case P::less_than: return x < y;
    case P::less_than_or_equal: return x <= y;
    case P::greater_than: return x > y;
    case P::greater_than_or_equal: return x >= y;
  }
  return false;
}

Array cmpf(const ir::Operation& op, const Array& a, const Array& b, Array out) {
  const auto p = static_cast<ir::ComparisonPredicate>(op.enum_attr_or_default("comparison_predicate"));
  const bool ordered =
      op.enum_attr_or_default("comparison_ordering") == static_cast<int64_t>(ir::ComparisonOrdering::ordered);
  map2(out.i, a.f, b.f, [&](double x, double y) -> uint64_t {
    if (std::isnan(x) || std::isnan(y)) return ordered ? 0 : 1;
    return compare(p, x, y) ? 1 : 0;
  });
  return out;
}

bool is_signed(const ir::Operation& op, std::string_view attr = "signedness") {
  return op.enum_attr_or_default(attr) == static_cast<int64_t>(ir::Signedness::signed_);
}

Array cmpi(const ir::Operation& op, const Array& a, const Array& b, Array out) {
  const auto p = static_cast<ir::ComparisonPredicate>(op.enum_attr_or_default("comparison_predicate"));
  const int w = int_bits(a);
  if (is_signed(op))
    map2(out.i, a.i, b.i, [&](uint64_t x, uint64_t y) -> uint64_t {
      return compare(p, sign_extend(x, w), sign_extend(y, w)) ? 1 : 0;
    });
  else
    map2(out.i, a.i, b.i, [&](uint64_t x, uint64_t y) -> uint64_t { return compare(p, x, y) ? 1 : 0; });
  return out;
}

uint64_t mul_high(uint64_t x, uint64_t y, int w) {
  if (w <= 32) return (x * y) >> w;
  const uint64_t xl = x & 0xFFFFFFFF, xh = x >> 32, yl = y & 0xFFFFFFFF, yh = y >> 32;
  const uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  const uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFF) + (hl & 0xFFFFFFFF);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

std::string element_text(size_t k) { return " (tile element " + std::to_string(k) + ")"; }

Array divide(const ir::Operation& op, const Array& a, const Array& b, Array out, bool remainder) {
  const int w = int_bits(a);
  const uint64_t m = bit_mask(w);
  const bool sgn = is_signed(op);
  const R mode = remainder ? R::zero : static_cast<R>(op.enum_attr_or_default("rounding"));
  const size_t n = out.i.size();
  const size_t sa = a.i.size() == n ? 1 : 0, sb = b.i.size() == n ? 1 : 0;
  const int64_t min_value = w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (w - 1));
  for (size_t k = 0; k < n; ++k) {
    const uint64_t ux = a.i[k * sa], uy = b.i[k * sb];
    if (uy == 0) throw Fault("integer division by zero" + element_text(k));
    if (!sgn) {
      uint64_t q = ux / uy;
      if (remainder)
        q = ux % uy;
      else if (mode == R::positive_inf && ux % uy != 0)
        q += 1;
      out.i[k] = q & m;
      continue;
    }
    const int64_t x = sign_extend(ux, w), y = sign_extend(uy, w);
    if (y == -1 && x == min_value) {
      if (remainder) {
        out.i[k] = 0;
        continue;
      }
      throw Fault("signed integer division overflow (" + std::to_string(x) + " / -1)" + element_text(k));
    }
    int64_t q = x / y;
    const int64_t r = x % y;
    if (remainder)
      q = r;
    else if (r != 0 && mode == R::negative_inf && ((r < 0) != (y < 0)))
      q -= 1;
    else if (r != 0 && mode == R::positive_inf && ((r < 0) == (y < 0)))
      q += 1;
    out.i[k] = static_cast<uint64_t>(q) & m;
  }
  return out;
}

Array int_binary(const ir::Operation& op, const Array& a, const Array& b, Array out) {
  const int w = int_bits(a);
  const uint64_t m = bit_mask(w);
  auto apply = [&](auto f) { map2(out.i, a.i, b.i, f); };
  switch (op.opcode()) {
    case O::addi: apply([m](uint64_t x, uint64_t y) { return (x + y) & m; }); break;
    case O::subi: apply([m](uint64_t x, uint64_t y) { return (x - y) & m; }); break;
    case O::muli: apply([m](uint64_t x, uint64_t y) { return (x * y) & m; }); break;
    case O::andi: apply([](uint64_t x, uint64_t y) { return x & y; }); break;
    case O::ori: apply([](uint64_t x, uint64_t y) { return x | y; }); break;
    case O::xori: apply([](uint64_t x, uint64_t y) { return x ^ y; }); break;
    case O::mulhii: apply([w](uint64_t x, uint64_t y) { return mul_high(x, y, w); }); break;
    case O::shli:
      apply([w, m](uint64_t x, uint64_t y) { return y >= static_cast<uint64_t>(w) ? 0 : (x << y) & m; });
      break;
    case O::shri:
      if (is_signed(op))
        apply([w, m](uint64_t x, uint64_t y) {
          const int64_t v = sign_extend(x, w);
          return static_cast<uint64_t>(y >= static_cast<uint64_t>(w) ? (v < 0 ? -1 : 0) : v >> y) & m;
        });
      else
        apply([w](uint64_t x, uint64_t y) { return y >= static_cast<uint64_t>(w) ? 0 : x >> y; });
      break;
    case O::maxi:
    case O::mini: {
      const bool take_max = op.opcode() == O::maxi;
      if (is_signed(op))
        apply([w, take_max](uint64_t x, uint64_t y) {
          return (sign_extend(x, w) > sign_extend(y, w)) == take_max ? x : y;
        });
      else
        apply([take_max](uint64_t x, uint64_t y) { return (x > y) == take_max ? x : y; });
      break;
    }
    case O::divi: return divide(op, a, b, std::move(out), false);
    case O::remi: return divide(op, a, b, std::move(out), true);
    default: throw InternalError("int_binary: " + std::string(op.spec().mnemonic));
  }
  return out;
}

uint64_t float_to_int(double v, int w, bool sgn) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  if (sgn) {
    const double hi = std::ldexp(1.0, w - 1);
    int64_t r;
    if (t >= hi)
      r = w >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (w - 1)) - 1;
    else if (t < -hi)
      r = w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (w - 1));
    else
      r = static_cast<int64_t>(t);
    return static_cast<uint64_t>(r) & bit_mask(w);
  }
  if (t <= 0) return 0;
  if (t >= std::ldexp(1.0, w)) return bit_mask(w);
  return static_cast<uint64_t>(t);
}

Array convert(const ir::Operation& op, const Array& x, Array out) {
  switch (op.opcode()) {
    case O::ftof: {
      const R mode = rounding_of(op);
      const E to = out.element;
      map1(out.f, x.f, [&](double v) { return round_to(to, v, mode); });
      return out;
    }
    case O::ftoi: {
      // Out-of-range and NaN inputs are undefined in Tile IR; they saturate here as the hardware's cvt does.
      const int w = int_bits(out);
      const bool sgn = is_signed(op);
      map1(out.i, x.f, [&](double v) { return float_to_int(v, w, sgn); });
      return out;
    }
    case O::itof: {
      const R mode = rounding_of(op);
      const E to = out.element;
      const int w = int_bits(x);
      const bool sgn = is_signed(op);
      HostRounding host(mode);
      map1(out.f, x.i, [&](uint64_t v) {
        if (to == E::f32)
          return sgn ? static_cast<double>(static_cast<float>(sign_extend(v, w))) : static_cast<double>(static_cast<float>(v));
        const double d = sgn ? static_cast<double>(sign_extend(v, w)) : static_cast<double>(v);
        return round_to(to, d, mode);
      });
      return out;
    }
    case O::exti: {
      const int from = int_bits(x);
      const uint64_t m = bit_mask(int_bits(out));
      if (is_signed(op))
        map1(out.i, x.i, [&](uint64_t v) { return static_cast<uint64_t>(sign_extend(v, from)) & m; });
      else
        out.i = x.i;
      return out;
    }
    case O::trunci: {
      const uint64_t m = bit_mask(int_bits(out));
      map1(out.i, x.i, [m](uint64_t v) { return v & m; });
      return out;
    }
    case O::bitcast: {
      std::vector<uint64_t> bits = x.i;
      if (x.is_float()) {
        bits.resize(x.f.size());
        for (size_t k = 0; k < bits.size(); ++k) bits[k] = float_bits(x.element, x.f[k]);
      }
      if (out.is_float())
        map1(out.f, bits, [&](uint64_t b) { return float_value(out.element, b); });
      else
        out.i = std::move(bits);
      return out;
    }
    case O::int_to_ptr:
    case O::ptr_to_int:
    case O::ptr_to_ptr: out.i = x.i; return out;
    default: throw InternalError("convert: " + std::string(op.spec().mnemonic));
  }
}

}  // namespace

bool is_elementwise(ir::Opcode opcode) {
  switch (opcode) {
    case O::absf: case O::negf: case O::ceil: case O::floor: case O::exp: case O::exp2: case O::log:
    case O::log2: case O::sqrt: case O::rsqrt: case O::sin: case O::cos: case O::tan: case O::sinh:
    case O::cosh: case O::tanh: case O::addf: case O::subf: case O::mulf: case O::divf: case O::remf:
    case O::pow: case O::atan2: case O::maxf: case O::minf: case O::fma: case O::fpowi: case O::cmpf:
    case O::cmpi: case O::select: case O::absi: case O::negi: case O::addi: case O::subi: case O::muli:
    case O::andi: case O::ori: case O::xori: case O::mulhii: case O::shli: case O::shri: case O::maxi:
    case O::mini: case O::divi: case O::remi: case O::ftof: case O::ftoi: case O::itof: case O::exti:
    case O::trunci: case O::bitcast: case O::int_to_ptr: case O::ptr_to_int: case O::ptr_to_ptr:
    case O::offset:
      return true;
    default:
      return false;
  }
}

Array eval_elementwise(const ir::Operation& op, std::span<const Array* const> in) {
  Array out = result_for(op, in);
  switch (op.opcode()) {
    case O::absf: case O::negf: case O::ceil: case O::floor: case O::exp: case O::exp2: case O::log:
    case O::log2: case O::sqrt: case O::rsqrt: case O::sin: case O::cos: case O::tan: case O::sinh:
    case O::cosh: case O::tanh:
      return float_unary(op, *in[0], std::move(out));
    case O::addf: case O::subf: case O::mulf: case O::divf: case O::remf: case O::pow: case O::atan2:
    case O::maxf: case O::minf:
      return float_binary(op, *in[0], *in[1], std::move(out));
    case O::fma: return fma(op, *in[0], *in[1], *in[2], std::move(out));
    case O::fpowi: {
      const int w = int_bits(*in[1]);
      const E e = out.element;
      map2(out.f, in[0]->f, in[1]->i, [&](double x, uint64_t n) {
        return round_to(e, std::pow(x, static_cast<double>(sign_extend(n, w))));
      });
      return out;
    }
    case O::cmpf: return cmpf(op, *in[0], *in[1], std::move(out));
    case O::cmpi: return cmpi(op, *in[0], *in[1], std::move(out));
    case O::select:
      if (out.is_float())
        map3(out.f, in[0]->i, in[1]->f, in[2]->f, [](uint64_t c, double x, double y) { return c ? x : y; });
      else
        map3(out.i, in[0]->i, in[1]->i, in[2]->i, [](uint64_t c, uint64_t x, uint64_t y) { return c ? x : y; });
      return out;
    case O::absi: {
      const int w = int_bits(*in[0]);
      const uint64_t m = bit_mask(w);
      map1(out.i, in[0]->i, [&](uint64_t x) {
        const int64_t v = sign_extend(x, w);
        return (v < 0 ? 0 - x : x) & m;
      });
      return out;
    }
    case O::negi: {
      const uint64_t m = bit_mask(int_bits(*in[0]));
      map1(out.i, in[0]->i, [m](uint64_t x) { return (0 - x) & m; });
      return out;
    }
    case O::addi: case O::subi: case O::muli: case O::andi: case O::ori: case O::xori: case O::mulhii:
    case O::shli: case O::shri: case O::maxi: case O::mini: case O::divi: case O::remi:
      return int_binary(op, *in[0], *in[1], std::move(out));
    case O::offset: {
      const int w = int_bits(*in[1]);
      const int64_t bytes = storage_bytes(out.element);
      map2(out.i, in[0]->i, in[1]->i, [&](uint64_t p, uint64_t off) {
        return p + static_cast<uint64_t>(sign_extend(off, w) * bytes);
      });
      return out;
    }
    default: return convert(op, *in[0], std::move(out));
  }
}

}  // namespace cutile::interp
