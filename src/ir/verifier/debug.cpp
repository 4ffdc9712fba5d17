// assert and print: the condition, the format string against its arguments, and the tokens.
#include "ir/verifier/rules.hpp"

#include <string_view>

namespace cutile::ir::verifier {

void check_assert(const Operation& op) {
  expect_tile(
      in(op, 0), "condition", [](E e) { return e == E::i1; }, "i1");
}

void check_print(const Operation& op) {
  const std::string& fmt = op.attr("str")->str;
  size_t expected = 0;
  for (size_t pos = 0; pos < fmt.size(); ++pos) {
    if (fmt[pos] != '%') continue;
    size_t end = pos + 1;
    while (end < fmt.size() &&
           std::string_view("diuoxXeEfFgGaAcsSpn%").find(fmt[end]) == std::string_view::npos)
      ++end;
    if (end == fmt.size())
      fail("format string has an unterminated conversion at offset " + std::to_string(pos));
    if (end == pos + 1 && fmt[end] == '%') {
      ++pos;
      continue;
    }
    ++expected;
  }
  const auto& args = group(op, 0);
  if (args.size() != expected)
    fail("format string has " + std::to_string(expected) + " conversions but " + std::to_string(args.size()) +
         " arguments");
  for (const Value* v : args)
    if (!v->type().is(TypeKind::tile)) fail("print arguments must be tiles, got " + v->type().str());
  if (auto t = optional_in(op, 1)) expect_token(*t, "token operand");
  expect_token(out(op), "result");
}

}  // namespace cutile::ir::verifier
