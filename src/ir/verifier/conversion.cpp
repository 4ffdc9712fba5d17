// Conversions: integer widening and narrowing, float and integer conversions, bitcasts, and the casts
// between integers and pointers.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

void check_int_resize(const Operation& op) {
  const bool ext = op.opcode() == Opcode::exti;
  const std::string ints = "i1/i4/i8/i16/i32/i64";
  expect_tile(in(op, 0), "source", is_integer, ints);
  expect_tile(out(op), "result", is_integer, ints);
  expect_same_shape(in(op, 0), out(op), "source and result");
  const int from = element_bits(*scalar_element(in(op, 0)));
  const int to = element_bits(*scalar_element(out(op)));
  if (ext && to <= from) fail("exti must widen: " + in(op, 0).str() + " -> " + out(op).str());
  if (!ext && to >= from) fail("trunci must narrow: " + in(op, 0).str() + " -> " + out(op).str());
}

void check_conversion(const Operation& op, Version version) {
  const Type& from = in(op, 0);
  const Type& to = out(op);
  const std::string floats = "float type";
  switch (op.opcode()) {
    case Opcode::ftof: {
      expect_tile(from, "source", is_float, floats);
      expect_tile(to, "result", is_float, floats);
      if (from == to) fail("ftof must change the type, got " + from.str() + " -> " + to.str());
      const RoundingMode r = rounding(op);
      using R = RoundingMode;
      if (*scalar_element(to) == E::f8e8m0fnu) {
        if (r != R::zero && r != R::positive_inf)
          fail("conversion to f8E8M0FNU needs rounding mode zero or positive_inf, got " +
               keyword(EnumKind::rounding, static_cast<int64_t>(r)));
      } else if (r != R::nearest_even &&
                 !(version >= v13_4 &&
                   (r == R::zero || r == R::negative_inf || r == R::positive_inf || r == R::nearest_away))) {
        fail("ftof supports only rounding mode nearest_even at bytecode " + version.str() + ", got " +
             keyword(EnumKind::rounding, static_cast<int64_t>(r)));
      }
      break;
    }
    case Opcode::ftoi:
      expect_tile(from, "source", is_float, floats);
      expect_tile(to, "result", is_op_int, kInts);
      if (rounding(op) != RoundingMode::nearest_int_to_zero)
        fail("ftoi supports only rounding mode nearest_int_to_zero, got " +
             keyword(EnumKind::rounding, static_cast<int64_t>(rounding(op))));
      break;
    case Opcode::itof:
      expect_tile(from, "source", is_op_int, kInts);
      expect_tile(to, "result", is_float, floats);
      if (*scalar_element(to) == E::f8e8m0fnu)
        fail("itof cannot convert to f8E8M0FNU; convert to another float first");
      if (rounding(op) != RoundingMode::nearest_even)
        fail("itof supports only rounding mode nearest_even, got " +
             keyword(EnumKind::rounding, static_cast<int64_t>(rounding(op))));
      break;
    default: {  // bitcast
      expect_tile(from, "source", is_number, "number type");
      expect_tile(to, "result", is_number, "number type");
      const int a = element_bits(*scalar_element(from));
      const int b = element_bits(*scalar_element(to));
      if (a != b)
        fail("bitcast needs equal element widths: " + from.str() + " (" + std::to_string(a) + " bits) -> " +
             to.str() + " (" + std::to_string(b) + " bits)");
    }
  }
  expect_same_shape(from, to, "source and result");
}

void check_int_to_ptr(const Operation& op) {
  expect_tile(
      in(op, 0), "source", [](E e) { return e == E::i64; }, "i64");
  if (!is_pointer_tile(out(op))) fail("result must be a tile of pointers, got " + out(op).str());
  expect_same_shape(in(op, 0), out(op), "source and result");
}

void check_ptr_to_int(const Operation& op) {
  if (!is_pointer_tile(in(op, 0))) fail("source must be a tile of pointers, got " + in(op, 0).str());
  expect_tile(
      out(op), "result", [](E e) { return e == E::i64; }, "i64");
  expect_same_shape(in(op, 0), out(op), "source and result");
}

void check_ptr_to_ptr(const Operation& op) {
  if (!is_pointer_tile(in(op, 0))) fail("source must be a tile of pointers, got " + in(op, 0).str());
  if (!is_pointer_tile(out(op))) fail("result must be a tile of pointers, got " + out(op).str());
  expect_same_shape(in(op, 0), out(op), "source and result");
}

}  // namespace cutile::ir::verifier
