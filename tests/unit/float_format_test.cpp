#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cutile/ir/float_format.hpp"

namespace {

using cutile::ir::bits_to_float;
using cutile::ir::ElementType;
using cutile::ir::float_to_bits;

TEST(FloatFormat, KnownEncodings) {
  EXPECT_EQ(float_to_bits(ElementType::f16, 1.0), 0x3C00u);
  EXPECT_EQ(float_to_bits(ElementType::f16, -2.0), 0xC000u);
  EXPECT_EQ(float_to_bits(ElementType::f16, 65504.0), 0x7BFFu);
  EXPECT_EQ(float_to_bits(ElementType::f16, 1e6), 0x7C00u);  // overflow -> inf
  EXPECT_EQ(float_to_bits(ElementType::bf16, 1.0), 0x3F80u);
  EXPECT_EQ(float_to_bits(ElementType::f32, 1.0), 0x3F800000u);
  EXPECT_EQ(float_to_bits(ElementType::tf32, 1.0), 0x1FC00u);  // 19 bits: sign, 8 exponent, 10 mantissa
  EXPECT_EQ(float_to_bits(ElementType::f8e4m3fn, 448.0), 0x7Eu);
  EXPECT_EQ(float_to_bits(ElementType::f8e4m3fn, 1.0), 0x38u);
  EXPECT_EQ(float_to_bits(ElementType::f8e5m2, 1.0), 0x3Cu);
  EXPECT_EQ(float_to_bits(ElementType::f8e5m2, -57344.0), 0xFBu);
  EXPECT_EQ(float_to_bits(ElementType::f4e2m1fn, 6.0), 0x7u);
  EXPECT_EQ(float_to_bits(ElementType::f4e2m1fn, -0.5), 0x9u);
  EXPECT_EQ(float_to_bits(ElementType::f8e8m0fnu, 1.0), 127u);
}

TEST(FloatFormat, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between two f16 values: ties go to the even mantissa.
  EXPECT_EQ(float_to_bits(ElementType::f16, 1.0 + std::ldexp(1.0, -11)), 0x3C00u);
  EXPECT_EQ(float_to_bits(ElementType::f16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02u);
  EXPECT_EQ(float_to_bits(ElementType::bf16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);
}

TEST(FloatFormat, SubnormalsAndSpecials) {
  EXPECT_EQ(float_to_bits(ElementType::f16, std::ldexp(1.0, -24)), 0x0001u);
  EXPECT_DOUBLE_EQ(bits_to_float(ElementType::f16, 0x0001), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(bits_to_float(ElementType::f8e4m3fn, 0x7F)));
  EXPECT_TRUE(std::isinf(bits_to_float(ElementType::f8e5m2, 0x7C)));
  EXPECT_TRUE(std::isnan(bits_to_float(ElementType::f16, float_to_bits(ElementType::f16, NAN))));
  EXPECT_EQ(float_to_bits(ElementType::f8e4m3fn, 1e9), 0x7Fu);  // no inf in FN formats: NaN
}

TEST(FloatFormat, EveryPatternRoundTrips) {
  for (ElementType e : {ElementType::f16, ElementType::bf16, ElementType::f8e4m3fn, ElementType::f8e5m2,
                        ElementType::f4e2m1fn}) {
    const int bits = cutile::ir::element_bits(e);
    for (uint64_t p = 0; p < (uint64_t{1} << bits); ++p) {
      const double v = bits_to_float(e, p);
      if (std::isnan(v)) continue;
      EXPECT_EQ(float_to_bits(e, v), p) << cutile::ir::element_type_name(e) << " pattern " << p;
    }
  }
}

}  // namespace
