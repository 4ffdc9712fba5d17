// Elementwise ops on small tiles against float64 references: float arithmetic and math in every float
// type, rounding modes and flush-to-zero, NaN rules, integer arithmetic with signedness, comparisons,
// select and conversions.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "support/pointer_io.hpp"

namespace {

using namespace cutile;
using test_support::expect_close;
using test_support::HostTensor;
using test_support::run_pointer_kernel;
using E = ir::ElementType;
using O = ir::Opcode;

const std::vector<int64_t> kShape = {4, 8};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double round_to(E e, double v) { return ir::bits_to_float(e, ir::float_to_bits(e, v)); }

ir::NamedAttribute attr(std::string name, ir::Attribute value) { return {std::move(name), std::move(value)}; }

struct FloatOp {
  O op;
  const char* name;
  double (*ref)(double, double);
  double lo, hi;  // input range
};

class FloatOps : public ::testing::TestWithParam<std::tuple<FloatOp, E>> {};

TEST_P(FloatOps, MatchRoundedReference) {
  const auto [op, e] = GetParam();
  std::mt19937 rng(static_cast<unsigned>(op.op) * 7 + static_cast<unsigned>(e));
  HostTensor a(e, kShape), b(e, kShape), out(e, kShape, false);
  a.fill_random(rng, op.lo, op.hi);
  b.fill_random(rng, op.lo, op.hi);
  const bool binary = op.ref != nullptr && ir::op_spec(op.op).operands.size() == 2;
  std::vector<HostTensor*> inputs = {&a};
  if (binary) inputs.push_back(&b);
  const auto got = run_pointer_kernel(inputs, out, kShape, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
    return binary ? bl.binary(op.op, in[0], in[1]) : bl.unary(op.op, in[0]);
  });
  std::vector<double> want(a.size());
  for (size_t k = 0; k < want.size(); ++k) want[k] = round_to(e, op.ref(a.get(k), b.get(k)));
  // The interpreter rounds the double result once, as the reference does: results agree exactly.
  expect_close(got, want, 0, 0, std::string(op.name) + " " + std::string(ir::element_type_name(e)));
}

const FloatOp kFloatOps[] = {
    {O::absf, "absf", [](double x, double) { return std::fabs(x); }, -4, 4},
    {O::negf, "negf", [](double x, double) { return -x; }, -4, 4},
    {O::ceil, "ceil", [](double x, double) { return std::ceil(x); }, -4, 4},
    {O::floor, "floor", [](double x, double) { return std::floor(x); }, -4, 4},
    {O::exp, "exp", [](double x, double) { return std::exp(x); }, -4, 4},
    {O::exp2, "exp2", [](double x, double) { return std::exp2(x); }, -4, 4},
    {O::log, "log", [](double x, double) { return std::log(x); }, 0.1, 8},
    {O::log2, "log2", [](double x, double) { return std::log2(x); }, 0.1, 8},
    {O::sqrt, "sqrt", [](double x, double) { return std::sqrt(x); }, 0.1, 8},
    {O::rsqrt, "rsqrt", [](double x, double) { return 1 / std::sqrt(x); }, 0.1, 8},
    {O::sin, "sin", [](double x, double) { return std::sin(x); }, -4, 4},
    {O::cos, "cos", [](double x, double) { return std::cos(x); }, -4, 4},
    {O::tan, "tan", [](double x, double) { return std::tan(x); }, -1, 1},
    {O::sinh, "sinh", [](double x, double) { return std::sinh(x); }, -3, 3},
    {O::cosh, "cosh", [](double x, double) { return std::cosh(x); }, -3, 3},
    {O::tanh, "tanh", [](double x, double) { return std::tanh(x); }, -3, 3},
    {O::addf, "addf", [](double x, double y) { return x + y; }, -4, 4},
    {O::subf, "subf", [](double x, double y) { return x - y; }, -4, 4},
    {O::mulf, "mulf", [](double x, double y) { return x * y; }, -4, 4},
    {O::divf, "divf", [](double x, double y) { return x / y; }, -4, 4},
    {O::remf, "remf", [](double x, double y) { return std::fmod(x, y); }, -4, 4},
    {O::pow, "pow", [](double x, double y) { return std::pow(x, y); }, 0.1, 3},
    {O::atan2, "atan2", [](double x, double y) { return std::atan2(x, y); }, -4, 4},
    {O::maxf, "maxf", [](double x, double y) { return std::fmax(x, y); }, -4, 4},
    {O::minf, "minf", [](double x, double y) { return std::fmin(x, y); }, -4, 4},
};

INSTANTIATE_TEST_SUITE_P(AllTypes, FloatOps,
                         ::testing::Combine(::testing::ValuesIn(kFloatOps), ::testing::Values(E::f32, E::f16, E::bf16, E::f64)),
                         [](const auto& test) {
                           return std::string(std::get<0>(test.param).name) + "_" +
                                  std::string(ir::element_type_name(std::get<1>(test.param)));
                         });

TEST(FloatArithmetic, FmaRoundsOnce) {
  std::mt19937 rng(3);
  for (E e : {E::f32, E::f16, E::bf16}) {
    HostTensor a(e, kShape), b(e, kShape), c(e, kShape), out(e, kShape, false);
    a.fill_random(rng, -2, 2);
    b.fill_random(rng, -2, 2);
    c.fill_random(rng, -2, 2);
    const auto got = run_pointer_kernel({&a, &b, &c}, out, kShape,
                                        [](ir::Builder& bl, std::span<ir::Value* const> in) { return bl.fma(in[0], in[1], in[2]); });
    std::vector<double> want(a.size());
    for (size_t k = 0; k < want.size(); ++k) want[k] = round_to(e, std::fma(a.get(k), b.get(k), c.get(k)));
    expect_close(got, want, 0, 0, "fma");
  }
}

// f32 a + b rounded toward zero, down and up, against nextafter of the nearest result.
TEST(FloatArithmetic, DirectedRoundingModes) {
  HostTensor a(E::f32, kShape), b(E::f32, kShape);
  for (size_t k = 0; k < a.size(); ++k) {
    a.set(k, (k % 2 ? -1.0 : 1.0) * (1.0 + static_cast<double>(k) / 7));
    b.set(k, 1e-9 * static_cast<double>(k + 1));  // far below half an ulp of a: only the direction decides
  }
  for (auto mode : {ir::RoundingMode::zero, ir::RoundingMode::negative_inf, ir::RoundingMode::positive_inf}) {
    HostTensor out(E::f32, kShape, false);
    const auto got = run_pointer_kernel({&a, &b}, out, kShape, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
      return bl.binary(O::addf, in[0], in[1], {attr("rounding_mode", ir::Attribute::enum_of(ir::EnumKind::rounding, mode))});
    });
    for (size_t k = 0; k < a.size(); ++k) {
      const double exact = a.get(k) + b.get(k);  // exact in double
      const float nearest = static_cast<float>(exact);
      const bool up = mode == ir::RoundingMode::positive_inf || (mode == ir::RoundingMode::zero && exact < 0);
      float want = nearest;
      const float inf = std::numeric_limits<float>::infinity();
      if (up && nearest < exact) want = std::nextafter(nearest, inf);
      if (!up && nearest > exact) want = std::nextafter(nearest, -inf);
      EXPECT_EQ(got[k], static_cast<double>(want)) << std::hexfloat << "element " << k << " mode " << static_cast<int>(mode);
    }
  }
}

TEST(FloatArithmetic, FlushToZeroAndApproxModes) {
  HostTensor a(E::f32, {4}), b(E::f32, {4}), out(E::f32, {4}, false);
  const double subnormal = std::ldexp(1.0, -130);
  for (size_t k = 0; k < 4; ++k) {
    a.set(k, k < 2 ? subnormal : 3.0);
    b.set(k, k == 0 ? 0.0 : 1.5);
  }
  auto got = run_pointer_kernel({&a, &b}, out, {4}, [](ir::Builder& bl, std::span<ir::Value* const> in) {
    return bl.binary(O::addf, in[0], in[1], {attr("flush_to_zero", ir::Attribute::unit())});
  });
  EXPECT_EQ(got, (std::vector<double>{0.0, 1.5, 4.5, 4.5}));
  got = run_pointer_kernel({&a, &b}, out, {4}, [](ir::Builder& bl, std::span<ir::Value* const> in) {
    return bl.binary(O::divf, in[0], in[1],
                     {attr("rounding_mode", ir::Attribute::enum_of(ir::EnumKind::rounding, ir::RoundingMode::approx))});
  });
  EXPECT_EQ(got[2], 2.0);  // approx is evaluated exactly
}

TEST(FloatArithmetic, MaxMinNaNRules) {
  HostTensor a(E::f32, {4}), b(E::f32, {4});
  const double xs[] = {kNaN, 1.0, kNaN, -0.0}, ys[] = {2.0, kNaN, kNaN, 0.0};
  for (size_t k = 0; k < 4; ++k) {
    a.set(k, xs[k]);
    b.set(k, ys[k]);
  }
  for (bool propagate : {false, true})
    for (O op : {O::maxf, O::minf}) {
      HostTensor out(E::f32, {4}, false);
      std::vector<ir::NamedAttribute> attrs;
      if (propagate) attrs.push_back(attr("propagate_nan", ir::Attribute::unit()));
      const auto got = run_pointer_kernel({&a, &b}, out, {4},
                                          [&](ir::Builder& bl, std::span<ir::Value* const> in) { return bl.binary(op, in[0], in[1], attrs); });
      if (propagate) {
        EXPECT_TRUE(std::isnan(got[0]) && std::isnan(got[1]) && std::isnan(got[2]));
      } else {
        EXPECT_EQ(got[0], 2.0);
        EXPECT_EQ(got[1], 1.0);
        EXPECT_TRUE(std::isnan(got[2]));
      }
      EXPECT_EQ(std::signbit(got[3]), op == O::minf) << "+0 is greater than -0";
    }
}

TEST(FloatArithmetic, ComparisonsWithOrdering) {
  HostTensor a(E::f32, {8}), b(E::f32, {8});
  const double xs[] = {1, 2, 3, kNaN, 5, -0.0, kInf, 1}, ys[] = {1, 1, 4, 1, kNaN, 0.0, kInf, 2};
  for (size_t k = 0; k < 8; ++k) {
    a.set(k, xs[k]);
    b.set(k, ys[k]);
  }
  for (int p = 0; p < 6; ++p)
    for (auto ordering : {ir::ComparisonOrdering::ordered, ir::ComparisonOrdering::unordered}) {
      HostTensor out(E::i8, {8}, false);
      const auto predicate = static_cast<ir::ComparisonPredicate>(p);
      const auto got = run_pointer_kernel({&a, &b}, out, {8}, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
        return bl.exti(bl.cmpf(predicate, in[0], in[1], ordering), E::i8, ir::Signedness::unsigned_);
      });
      for (size_t k = 0; k < 8; ++k) {
        bool want;
        if (std::isnan(xs[k]) || std::isnan(ys[k])) {
          want = ordering == ir::ComparisonOrdering::unordered;
        } else {
          const double x = xs[k], y = ys[k];
          const bool results[] = {x == y, x != y, x < y, x <= y, x > y, x >= y};
          want = results[p];
        }
        EXPECT_EQ(got[k], want ? 1.0 : 0.0) << "predicate " << p << " element " << k;
      }
    }
}

// ---- integers

struct IntCase {
  O op;
  const char* name;
  ir::Signedness signedness;
  int64_t (*ref)(int64_t, int64_t, int bits);
};

int64_t wrap(int64_t v, int bits) {
  const uint64_t m = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t u = static_cast<uint64_t>(v) & m;
  return bits >= 64 ? static_cast<int64_t>(u) : static_cast<int64_t>(u << (64 - bits)) >> (64 - bits);
}
__extension__ typedef unsigned __int128 u128;

uint64_t unsigned_of(int64_t v, int bits) {
  return bits >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

const IntCase kIntOps[] = {
    {O::addi, "addi", ir::Signedness::signed_, [](int64_t x, int64_t y, int w) { return wrap(static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y)), w); }},
    {O::subi, "subi", ir::Signedness::signed_, [](int64_t x, int64_t y, int w) { return wrap(static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y)), w); }},
    {O::muli, "muli", ir::Signedness::signed_,
     [](int64_t x, int64_t y, int w) { return wrap(static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)), w); }},
    {O::andi, "andi", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return x & y; }},
    {O::ori, "ori", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return x | y; }},
    {O::xori, "xori", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return x ^ y; }},
    {O::maxi, "maxi_signed", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return std::max(x, y); }},
    {O::mini, "mini_signed", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return std::min(x, y); }},
    {O::maxi, "maxi_unsigned", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) { return unsigned_of(x, w) > unsigned_of(y, w) ? x : y; }},
    {O::mini, "mini_unsigned", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) { return unsigned_of(x, w) < unsigned_of(y, w) ? x : y; }},
    {O::divi, "divi_signed", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return x / y; }},
    {O::divi, "divi_unsigned", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) { return wrap(static_cast<int64_t>(unsigned_of(x, w) / unsigned_of(y, w)), w); }},
    {O::remi, "remi_signed", ir::Signedness::signed_, [](int64_t x, int64_t y, int) { return x % y; }},
    {O::remi, "remi_unsigned", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) { return wrap(static_cast<int64_t>(unsigned_of(x, w) % unsigned_of(y, w)), w); }},
    {O::shli, "shli", ir::Signedness::signed_,
     [](int64_t x, int64_t y, int w) { return unsigned_of(y, w) >= static_cast<uint64_t>(w) ? 0 : wrap(static_cast<int64_t>(static_cast<uint64_t>(x) << unsigned_of(y, w)), w); }},
    {O::shri, "shri_signed", ir::Signedness::signed_,
     [](int64_t x, int64_t y, int w) { return unsigned_of(y, w) >= static_cast<uint64_t>(w) ? (x < 0 ? -1 : 0) : x >> unsigned_of(y, w); }},
    {O::shri, "shri_unsigned", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) { return unsigned_of(y, w) >= static_cast<uint64_t>(w) ? 0 : wrap(static_cast<int64_t>(unsigned_of(x, w) >> unsigned_of(y, w)), w); }},
    {O::mulhii, "mulhii", ir::Signedness::unsigned_,
     [](int64_t x, int64_t y, int w) {
       if (w == 64) return static_cast<int64_t>(static_cast<uint64_t>((static_cast<u128>(static_cast<uint64_t>(x)) * static_cast<uint64_t>(y)) >> 64));
       return wrap(static_cast<int64_t>((unsigned_of(x, w) * unsigned_of(y, w)) >> w), w);
     }},
};

class IntOps : public ::testing::TestWithParam<std::tuple<IntCase, E>> {};

TEST_P(IntOps, MatchReference) {
  const auto [op, e] = GetParam();
  const int w = ir::element_bits(e);
  std::mt19937_64 rng(static_cast<unsigned>(op.op) * 31 + static_cast<unsigned>(e));
  HostTensor a(e, kShape), b(e, kShape), out(e, kShape, false);
  const bool shift = op.op == O::shli || op.op == O::shri;
  for (size_t k = 0; k < a.size(); ++k) {
    int64_t x = wrap(static_cast<int64_t>(rng()), w), y = wrap(static_cast<int64_t>(rng()), w);
    if (shift) y = static_cast<int64_t>(k % static_cast<size_t>(w + 2));  // includes amounts ≥ the width
    if (y == 0 && !shift) y = 3;
    if (op.op == O::divi || op.op == O::remi) {
      if (k % 4 == 0) y = -y;  // mixed signs
      if (y == -1) y = 5;
    }
    a.set_bits(k, unsigned_of(x, w));
    b.set_bits(k, unsigned_of(y, w));
  }
  std::vector<ir::NamedAttribute> attrs;
  if (ir::op_spec(op.op).find_attr("signedness"))
    attrs.push_back(attr("signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, op.signedness)));
  run_pointer_kernel({&a, &b}, out, kShape, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
    return bl.binary(op.op, in[0], in[1], attrs);
  });
  for (size_t k = 0; k < a.size(); ++k) {
    const int64_t x = wrap(static_cast<int64_t>(a.bits(k)), w), y = wrap(static_cast<int64_t>(b.bits(k)), w);
    EXPECT_EQ(out.bits(k), unsigned_of(op.ref(x, y, w), w))
        << op.name << " " << ir::element_type_name(e) << " element " << k << ": " << x << ", " << y;
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, IntOps,
                         ::testing::Combine(::testing::ValuesIn(kIntOps), ::testing::Values(E::i8, E::i16, E::i32, E::i64)),
                         [](const auto& test) {
                           return std::string(std::get<0>(test.param).name) + "_" +
                                  std::string(ir::element_type_name(std::get<1>(test.param)));
                         });

TEST(IntegerArithmetic, DivisionRoundingModes) {
  HostTensor a(E::i32, {4}), b(E::i32, {4});
  const int64_t xs[] = {7, -7, 7, -7}, ys[] = {2, 2, -2, -2};
  for (size_t k = 0; k < 4; ++k) {
    a.set(k, static_cast<double>(xs[k]));
    b.set(k, static_cast<double>(ys[k]));
  }
  for (auto [mode, want] : {std::pair{ir::RoundingMode::zero, std::vector<double>{3, -3, -3, 3}},
                            std::pair{ir::RoundingMode::negative_inf, std::vector<double>{3, -4, -4, 3}},
                            std::pair{ir::RoundingMode::positive_inf, std::vector<double>{4, -3, -3, 4}}}) {
    HostTensor out(E::i32, {4}, false);
    const auto got = run_pointer_kernel({&a, &b}, out, {4}, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
      return bl.binary(O::divi, in[0], in[1],
                       {attr("signedness", ir::Attribute::enum_of(ir::EnumKind::signedness, ir::Signedness::signed_)),
                        attr("rounding", ir::Attribute::enum_of(ir::EnumKind::rounding, mode))});
    });
    EXPECT_EQ(got, want) << "mode " << static_cast<int>(mode);
  }
}

TEST(IntegerArithmetic, UnaryAndComparisons) {
  HostTensor a(E::i16, {8}), b(E::i16, {8});
  const int64_t xs[] = {-32768, -5, 0, 5, 32767, -1, 3, 3}, ys[] = {1, -5, 0, 6, -32768, 1, -3, 3};
  for (size_t k = 0; k < 8; ++k) {
    a.set(k, static_cast<double>(xs[k]));
    b.set(k, static_cast<double>(ys[k]));
  }
  HostTensor out(E::i16, {8}, false);
  EXPECT_EQ(run_pointer_kernel({&a}, out, {8}, [](ir::Builder& bl, std::span<ir::Value* const> in) { return bl.unary(O::absi, in[0]); }),
            (std::vector<double>{-32768, 5, 0, 5, 32767, 1, 3, 3}));
  EXPECT_EQ(run_pointer_kernel({&a}, out, {8}, [](ir::Builder& bl, std::span<ir::Value* const> in) { return bl.unary(O::negi, in[0]); }),
            (std::vector<double>{-32768, 5, 0, -5, -32767, 1, -3, -3}));
  for (auto s : {ir::Signedness::signed_, ir::Signedness::unsigned_})
    for (int p = 0; p < 6; ++p) {
      HostTensor flags(E::i8, {8}, false);
      const auto got = run_pointer_kernel({&a, &b}, flags, {8}, [&](ir::Builder& bl, std::span<ir::Value* const> in) {
        return bl.exti(bl.cmpi(static_cast<ir::ComparisonPredicate>(p), in[0], in[1], s), E::i8, ir::Signedness::unsigned_);
      });
      for (size_t k = 0; k < 8; ++k) {
        const int64_t x = s == ir::Signedness::signed_ ? xs[k] : static_cast<int64_t>(unsigned_of(xs[k], 16));
        const int64_t y = s == ir::Signedness::signed_ ? ys[k] : static_cast<int64_t>(unsigned_of(ys[k], 16));
        const bool results[] = {x == y, x != y, x < y, x <= y, x > y, x >= y};
        EXPECT_EQ(got[k], results[p] ? 1.0 : 0.0) << "predicate " << p << " element " << k;
      }
    }
}

TEST(Select, PicksPerElement) {
  HostTensor a(E::f16, {8}), b(E::f16, {8}), out(E::f16, {8}, false);
  for (size_t k = 0; k < 8; ++k) {
    a.set(k, static_cast<double>(k));
    b.set(k, -static_cast<double>(k) - 1);
  }
  const auto got = run_pointer_kernel({&a, &b}, out, {8}, [](ir::Builder& bl, std::span<ir::Value* const> in) {
    ir::Value* odd = bl.cmpi(ir::ComparisonPredicate::equal, bl.binary(O::andi, bl.iota(8), bl.constant_int(E::i32, 1, {8})),
                             bl.constant_int(E::i32, 1, {8}));
    return bl.select(odd, in[0], in[1]);
  });
  EXPECT_EQ(got, (std::vector<double>{-1, 1, -3, 3, -5, 5, -7, 7}));
}

// ---- conversions

// Known bit patterns of nearest-even rounding into the narrow formats, including ties, subnormals and
// overflow.
TEST(Conversions, NarrowFloatBitPatterns) {
  struct Case {
    E to;
    double value;
    uint64_t bits;
  };
  const Case cases[] = {
      {E::f16, 1.0, 0x3C00},           {E::f16, 1.0 / 3, 0x3555},       {E::f16, 65504, 0x7BFF},
      {E::f16, 65520, 0x7C00},         {E::f16, 1 + 0x1p-11, 0x3C00},   {E::f16, 1 + 3 * 0x1p-11, 0x3C02},
      {E::f16, 0x1p-24, 0x0001},       {E::f16, 0x1p-25, 0x0000},       {E::f16, 3 * 0x1p-26, 0x0001},
      {E::f16, -2.5, 0xC100},          {E::bf16, 1.0, 0x3F80},          {E::bf16, 1.0 / 3, 0x3EAB},
      {E::bf16, 1 + 0x1p-8, 0x3F80},   {E::bf16, 1 + 3 * 0x1p-8, 0x3F82}, {E::bf16, 3.0, 0x4040},
      {E::bf16, -0x1p-133, 0x8001},    {E::f8e4m3fn, 1.0, 0x38},        {E::f8e4m3fn, 448, 0x7E},
      {E::f8e4m3fn, 464, 0x7E},        {E::f8e4m3fn, 0x1p-9, 0x01},     {E::f8e4m3fn, -0.0625, 0x98},
      {E::f8e4m3fn, 1.0625, 0x38},     {E::f8e4m3fn, 1.1875, 0x3A},     {E::f8e5m2, 1.0, 0x3C},
      {E::f8e5m2, 57344, 0x7B},        {E::f8e5m2, 1.125, 0x3C},        {E::f8e5m2, 1.375, 0x3E},
      {E::f8e5m2, 0x1p-16, 0x01},
  };
  for (const Case& c : cases) {
    HostTensor in(E::f64, {1}), out(c.to, {1}, false);
    in.set(0, c.value);
    run_pointer_kernel({&in}, out, {1}, [&](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.ftof(v[0], c.to); });
    EXPECT_EQ(out.bits(0), c.bits) << ir::element_type_name(c.to) << " of " << c.value;
    EXPECT_EQ(out.bits(0), ir::float_to_bits(c.to, c.value)) << ir::element_type_name(c.to) << " of " << c.value;
  }
}

// Random f32 values through every narrow format agree with ir::float_to_bits bit for bit; tf32 goes
// through and back to f32.
TEST(Conversions, NarrowFormatsAgreeWithFloatFormat) {
  std::mt19937 rng(5);
  const std::vector<int64_t> shape = {256};
  HostTensor in(E::f32, shape);
  std::uniform_int_distribution<int> exponent(-30, 20);
  std::uniform_real_distribution<double> mantissa(-2, 2);
  for (size_t k = 0; k < in.size(); ++k) in.set(k, std::ldexp(mantissa(rng), exponent(rng)));
  for (E to : {E::f16, E::bf16, E::f8e4m3fn, E::f8e5m2}) {
    HostTensor out(to, shape, false);
    run_pointer_kernel({&in}, out, shape, [&](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.ftof(v[0], to); });
    for (size_t k = 0; k < in.size(); ++k)
      EXPECT_EQ(out.bits(k), ir::float_to_bits(to, in.get(k))) << ir::element_type_name(to) << " of " << in.get(k);
  }
  HostTensor back(E::f32, shape, false);
  run_pointer_kernel({&in}, back, shape, [&](ir::Builder& bl, std::span<ir::Value* const> v) {
    return bl.ftof(bl.ftof(v[0], E::tf32), E::f32);
  });
  for (size_t k = 0; k < in.size(); ++k) EXPECT_EQ(back.get(k), round_to(E::tf32, in.get(k))) << in.get(k);
}

TEST(Conversions, IntegerAndFloatConversions) {
  HostTensor f(E::f32, {8});
  const double fs[] = {1.9, -1.9, 300.5, -300.5, 1e10, -1e10, kNaN, 0.5};
  for (size_t k = 0; k < 8; ++k) f.set(k, fs[k]);
  HostTensor i8(E::i8, {8}, false);
  run_pointer_kernel({&f}, i8, {8}, [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.ftoi(v[0], E::i8); });
  EXPECT_EQ(i8.values(), (std::vector<double>{1, -1, 127, -128, 127, -128, 0, 0})) << "ftoi truncates and saturates";
  HostTensor u16(E::i16, {8}, false);
  run_pointer_kernel({&f}, u16, {8}, [](ir::Builder& bl, std::span<ir::Value* const> v) {
    return bl.ftoi(v[0], E::i16, ir::Signedness::unsigned_);
  });
  EXPECT_EQ(u16.bits(0), 1u);
  EXPECT_EQ(u16.bits(1), 0u);
  EXPECT_EQ(u16.bits(4), 0xFFFFu);

  HostTensor ints(E::i32, {4});
  const int64_t is[] = {-1, 16777217, 3, -2147483648};
  for (size_t k = 0; k < 4; ++k) ints.set(k, static_cast<double>(is[k]));
  HostTensor fl(E::f32, {4}, false);
  run_pointer_kernel({&ints}, fl, {4}, [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.itof(v[0], E::f32); });
  EXPECT_EQ(fl.values(), (std::vector<double>{-1, 16777216, 3, -2147483648.0}));
  run_pointer_kernel({&ints}, fl, {4},
                     [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.itof(v[0], E::f32, ir::Signedness::unsigned_); });
  EXPECT_EQ(fl.get(0), 4294967296.0);
  HostTensor h(E::f16, {4}, false);
  run_pointer_kernel({&ints}, h, {4}, [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.itof(v[0], E::f16); });
  EXPECT_EQ(h.get(0), -1.0);
  EXPECT_EQ(h.get(1), kInf);

  HostTensor wide(E::i64, {4}, false);
  run_pointer_kernel({&ints}, wide, {4}, [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.exti(v[0], E::i64); });
  EXPECT_EQ(wide.get(0), -1.0);
  run_pointer_kernel({&ints}, wide, {4}, [](ir::Builder& bl, std::span<ir::Value* const> v) {
    return bl.exti(v[0], E::i64, ir::Signedness::unsigned_);
  });
  EXPECT_EQ(wide.get(0), 4294967295.0);
  HostTensor narrow(E::i8, {4}, false);
  run_pointer_kernel({&ints}, narrow, {4}, [](ir::Builder& bl, std::span<ir::Value* const> v) { return bl.trunci(v[0], E::i8); });
  EXPECT_EQ(narrow.values(), (std::vector<double>{-1, 1, 3, 0}));

  HostTensor bits(E::i32, {8}, false);
  run_pointer_kernel({&f}, bits, {8}, [](ir::Builder& bl, std::span<ir::Value* const> v) {
    return bl.create_value(O::bitcast, ir::tile_type({8}, E::i32), {v[0]});
  });
  EXPECT_EQ(bits.bits(0), std::bit_cast<uint32_t>(1.9f));
}

TEST(Conversions, PointerRoundTrip) {
  HostTensor data(E::f32, {8}), out(E::i64, {1}, false);
  auto module = std::make_unique<ir::Module>();
  ir::Function& f = module->add_function("k", {ir::pointer_type(E::f32), ir::pointer_type(E::i64)});
  ir::Builder b(f.entry_block());
  ir::Value* as_int = b.create_value(O::ptr_to_int, ir::scalar_type(E::i64), {f.parameter(0)});
  ir::Value* moved = b.binary(O::addi, as_int, b.constant_int(E::i64, 12));
  ir::Value* back = b.create_value(O::int_to_ptr, ir::pointer_type(E::f32), {moved});
  ir::Value* as_i32 = b.create_value(O::ptr_to_ptr, ir::pointer_type(E::i32), {back});
  ir::Value* loaded = b.load_ptr(as_i32).first;
  b.store_ptr(f.parameter(1), b.exti(loaded, E::i64));
  b.return_();
  data.set(3, 2.0);
  interp::run(*module, "k", std::vector<uint64_t>{data.address(), out.address()}, {1, 1, 1},
              std::vector<interp::MemoryRegion>{data.region("data", false), out.region("out")});
  EXPECT_EQ(out.bits(0), std::bit_cast<uint32_t>(2.0f));
}

}  // namespace
