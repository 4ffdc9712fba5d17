// Float and integer arithmetic, math functions, comparisons and select: operand and result types,
// rounding modes and flush-to-zero.
#include "ir/verifier/rules.hpp"

#include <algorithm>

namespace cutile::ir::verifier {

namespace {

// Rounding-mode sets, flush_to_zero and approx/full: only f32 may use the fast modifiers.
void check_float_modifiers(const Operation& op) {
  const bool f32 = scalar_element(out(op)) == E::f32;
  const std::string elem = out(op).element().str();
  if (op.has_attr("flush_to_zero") && !f32) fail("flush_to_zero is only supported for f32, got " + elem);
  if (!op.spec().find_attr("rounding_mode")) return;
  const RoundingMode r = rounding(op);
  using R = RoundingMode;
  std::vector<R> allowed = {R::nearest_even, R::zero, R::negative_inf, R::positive_inf};
  switch (op.opcode()) {
    case Opcode::divf:
      allowed.insert(allowed.end(), {R::approx, R::full});
      break;
    case Opcode::sqrt:
      allowed.push_back(R::approx);
      break;
    case Opcode::exp:
    case Opcode::tanh:
      allowed = {R::full, R::approx};
      break;
    default:
      break;
  }
  if (std::find(allowed.begin(), allowed.end(), r) == allowed.end()) {
    std::string names;
    for (R a : allowed)
      names += (names.empty() ? "" : ", ") + keyword(EnumKind::rounding, static_cast<int64_t>(a));
    fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
         "' is not allowed; expected one of " + names);
  }
  // `full` is the default (precise) mode of exp/tanh, but a fast mode of divf.
  const bool fast = r == R::approx || (r == R::full && op.opcode() == Opcode::divf);
  if (fast && !f32)
    fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
         "' is only supported for f32, got " + elem);
}

void check_divi(const Operation& op) {
  const RoundingMode r = rounding(op, "rounding");
  if (r != RoundingMode::zero && r != RoundingMode::negative_inf && r != RoundingMode::positive_inf)
    fail("rounding mode '" + keyword(EnumKind::rounding, static_cast<int64_t>(r)) +
         "' is not allowed; expected one of zero, negative_inf, positive_inf");
  if (r == RoundingMode::negative_inf &&
      op.enum_attr_or_default("signedness") == static_cast<int64_t>(Signedness::unsigned_))
    fail("rounding mode 'negative_inf' is not allowed with unsigned division");
}

}  // namespace

void check_float_unary(const Operation& op) {
  expect_tile(in(op, 0), "source", is_arithmetic_float, kBaseFloats);
  expect_same(in(op, 0), out(op), "result type must equal the source type");
  check_float_modifiers(op);
}

void check_float_binary(const Operation& op) {
  expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
  expect_same(in(op, 0), in(op, 1), "operand types must match");
  expect_same(in(op, 0), out(op), "result type must equal the operand type");
  check_float_modifiers(op);
}

void check_fma(const Operation& op) {
  expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
  expect_same(in(op, 0), in(op, 1), "operand types must match");
  expect_same(in(op, 0), in(op, 2), "operand types must match");
  expect_same(in(op, 0), out(op), "result type must equal the operand type");
  check_float_modifiers(op);
}

void check_fpowi(const Operation& op) {
  expect_tile(in(op, 0), "source", is_arithmetic_float, kBaseFloats);
  expect_tile(
      in(op, 1), "exponent", [](E e) { return e == E::i1 || e == E::i8 || e == E::i16 || e == E::i32; },
      "i1/i8/i16/i32");
  expect_same_shape(in(op, 0), in(op, 1), "source and exponent");
  expect_same(in(op, 0), out(op), "result type must equal the source type");
}

void check_int_unary(const Operation& op) {
  expect_tile(in(op, 0), "source", is_op_int, kInts);
  expect_same(in(op, 0), out(op), "result type must equal the source type");
  if (op.opcode() == Opcode::negi &&
      op.enum_attr_or_default("overflow") == static_cast<int64_t>(IntegerOverflow::no_unsigned_wrap))
    fail("overflow 'no_unsigned_wrap' is not supported (negi has signed semantics)");
}

void check_int_binary(const Operation& op) {
  expect_tile(in(op, 0), "lhs", is_op_int, kInts);
  expect_same(in(op, 0), in(op, 1), "operand types must match");
  expect_same(in(op, 0), out(op), "result type must equal the operand type");
  if (op.opcode() == Opcode::divi) check_divi(op);
}

void check_compare(const Operation& op) {
  const bool f = op.opcode() == Opcode::cmpf;
  if (f)
    expect_tile(in(op, 0), "lhs", is_arithmetic_float, kBaseFloats);
  else
    expect_tile(in(op, 0), "lhs", is_op_int, kInts);
  expect_same(in(op, 0), in(op, 1), "operand types must match");
  const Type want = Type::tile(in(op, 0).shape(), Type::element(E::i1));
  expect_same(out(op), want, "result must be an i1 tile of the operand shape");
}

void check_select(const Operation& op) {
  expect_tile(
      in(op, 0), "condition", [](E e) { return e == E::i1; }, "i1");
  expect_same(in(op, 1), in(op, 2), "value types must match");
  expect_same(in(op, 1), out(op), "result type must equal the value type");
  expect_same_shape(in(op, 0), in(op, 1), "condition and values");
  if (scalar_element(out(op)) == E::f4e2m1fn) fail("select cannot operate on sub-byte type f4E2M1FN");
}

}  // namespace cutile::ir::verifier
