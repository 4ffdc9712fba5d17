// assume: the div_by, same_elements and bounded predicates and the values they apply to.
#include "ir/verifier/rules.hpp"

namespace cutile::ir::verifier {

void check_assume(const Operation& op) {
  const Type& t = in(op, 0);
  expect_same(t, out(op), "result type must equal the value type");
  const Attribute& p = *op.attr("predicate");
  const std::optional<E> e = scalar_element(t);
  const bool int_or_ptr = (e && is_op_int(*e)) || is_pointer_tile(t);
  switch (p.kind) {
    case AttrKind::div_by:
      if (!is_pow2(p.int_value) || p.int_value > (int64_t{1} << 62))
        fail("div_by divisor must be a power of two <= 2^62, got " + std::to_string(p.int_value));
      if (p.every.has_value() != p.along.has_value())
        fail("div_by 'every' and 'along' must be given together");
      if (t.is(TypeKind::tensor_view)) {
        if (p.every) fail("div_by 'every'/'along' cannot be used on a tensor_view");
        return;
      }
      if (!int_or_ptr)
        fail("div_by applies to tiles of integers or pointers and tensor_views, got " + t.str());
      if (p.every) {
        if (t.rank() == 0) fail("div_by 'every'/'along' cannot be used on a rank-0 tile");
        if (*p.along < 0 || *p.along >= t.rank())
          fail("div_by 'along' " + std::to_string(*p.along) + " must be in [0, " + std::to_string(t.rank()) +
               ")");
        if (*p.every < 0 || *p.every > t.shape()[static_cast<size_t>(*p.along)])
          fail("div_by 'every' " + std::to_string(*p.every) + " must be within the size of dimension " +
               std::to_string(*p.along));
      }
      return;
    case AttrKind::same_elements:
      if (!int_or_ptr) fail("same_elements applies to tiles of integers or pointers, got " + t.str());
      if (static_cast<int64_t>(p.ints.size()) != t.rank())
        fail("same_elements needs one value per dimension (" + std::to_string(t.rank()) + "), got " +
             shape_text(p.ints));
      for (size_t i = 0; i < p.ints.size(); ++i)
        if (p.ints[i] < 0 || p.ints[i] > t.shape()[i])
          fail("same_elements value " + std::to_string(i) + " must be within [0, " +
               std::to_string(t.shape()[i]) + "]");
      return;
    default: {  // bounded
      if (!e || !is_op_int(*e)) fail("bounded applies to tiles of integers, got " + t.str());
      const int bits = element_bits(*e);
      const int64_t lo = bits >= 64 ? INT64_MIN : bits == 1 ? -1 : -(int64_t{1} << (bits - 1));
      const int64_t hi = bits >= 64 ? INT64_MAX : bits == 1 ? 0 : (int64_t{1} << (bits - 1)) - 1;
      for (const auto& [bound, label] : {std::pair{p.lower, "lower"}, std::pair{p.upper, "upper"}})
        if (bound && (*bound < lo || *bound > hi))
          fail(std::string("bounded ") + label + " bound " + std::to_string(*bound) +
               " is outside the range of " + name(*e));
      if (p.lower && p.upper && *p.lower > *p.upper)
        fail("bounded lower bound " + std::to_string(*p.lower) + " exceeds upper bound " +
             std::to_string(*p.upper));
    }
  }
}

}  // namespace cutile::ir::verifier
