// Matrix multiply-accumulate: mmaf, mmai and mmaf_scaled operand, accumulator and shape rules.
#include "ir/verifier/rules.hpp"

#include <algorithm>

namespace cutile::ir::verifier {

void check_mma(const Operation& op) {
  const Type& a = in(op, 0);
  const Type& b = in(op, 1);
  const Type& c = in(op, 2);
  for (const Type* t : {&a, &b, &c})
    if (!tile_of(*t, [](E) { return true; })) fail("operands must be tiles of numbers, got " + t->str());
  expect_same(c, out(op), "result type must equal the accumulator type");
  const E ea = *scalar_element(a);
  const E ec = *scalar_element(c);
  if (op.opcode() == Opcode::mmai) {
    expect_tile(
        a, "lhs", [](E e) { return e == E::i8; }, "i8");
    expect_tile(
        b, "rhs", [](E e) { return e == E::i8; }, "i8");
    expect_tile(
        c, "acc", [](E e) { return e == E::i32; }, "i32");
  } else if (op.opcode() == Opcode::mmaf) {
    if (ea != *scalar_element(b)) fail("lhs and rhs element types must match: " + a.str() + " vs " + b.str());
    std::vector<E> acc;
    switch (ea) {
      case E::f16:
      case E::f8e4m3fn:
      case E::f8e5m2:
        acc = {E::f16, E::f32};
        break;
      case E::bf16:
      case E::tf32:
      case E::f32:
        acc = {E::f32};
        break;
      case E::f64:
        acc = {E::f64};
        break;
      default:
        fail("unsupported mmaf input element type " + name(ea) +
             " (expected f16, bf16, tf32, f32, f64, f8E4M3FN or f8E5M2)");
    }
    if (std::find(acc.begin(), acc.end(), ec) == acc.end()) {
      std::string names;
      for (E e : acc) names += (names.empty() ? "" : "/") + name(e);
      fail("mmaf with " + name(ea) + " inputs needs a " + names + " accumulator, got " + c.str());
    }
  } else {
    auto low = [](E e) { return e == E::f8e4m3fn || e == E::f8e5m2 || e == E::f4e2m1fn; };
    expect_tile(a, "lhs", low, "f8E4M3FN/f8E5M2/f4E2M1FN");
    expect_tile(b, "rhs", low, "f8E4M3FN/f8E5M2/f4E2M1FN");
    expect_tile(
        c, "acc", [](E e) { return e == E::f32; }, "f32");
    for (size_t g : {3, 4})
      expect_tile(
          in(op, g), g == 3 ? "lhs_scale" : "rhs_scale",
          [](E e) { return e == E::f8e4m3fn || e == E::f8e8m0fnu; }, "f8E4M3FN/f8E8M0FNU");
  }
  // Shapes: [B x] M x K, [B x] K x N, [B x] M x N.
  if (a.rank() != 2 && a.rank() != 3) fail("mma operands must be 2-D or 3-D (batched) tiles, got " + a.str());
  if (b.rank() != a.rank() || c.rank() != a.rank())
    fail("mma operands must have one rank: " + a.str() + ", " + b.str() + ", " + c.str());
  const size_t o = a.rank() == 3 ? 1 : 0;
  const auto& sa = a.shape();
  const auto& sb = b.shape();
  const auto& sc = c.shape();
  if (o == 1 && (sa[0] != sb[0] || sa[0] != sc[0]))
    fail("mma batch dimensions must match: " + a.str() + ", " + b.str() + ", " + c.str());
  if (sa[o + 1] != sb[o] || sa[o] != sc[o] || sb[o + 1] != sc[o + 1])
    fail("mma shapes must be MxK, KxN, MxN: " + a.str() + ", " + b.str() + ", " + c.str());
}

}  // namespace cutile::ir::verifier
