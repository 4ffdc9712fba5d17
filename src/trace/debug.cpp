// print: format checking and print_tko emission.
#include "cutile/debug.hpp"

#include "cutile/error.hpp"

namespace cutile::detail {

size_t count_format_conversions(std::string_view format) {
  size_t n = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 < format.size() && format[i + 1] == '%')
      ++i;
    else
      ++n;
  }
  return n;
}

void trace_print(std::string_view format, std::vector<ir::Value*> args, const std::source_location& where) {
  ir::Builder& b = trace_at(where);
  const size_t conversions = count_format_conversions(format);
  if (conversions != args.size())
    throw UserError(std::string(where.file_name()) + ":" + std::to_string(where.line()) + ": print format \"" +
                    std::string(format) + "\" has " + std::to_string(conversions) + " conversion(s) but " +
                    std::to_string(args.size()) + " tile argument(s) were given");
  // No token operand: prints are not ordered against memory operations.
  b.create(ir::Opcode::print_tko, {ir::Type::token()}, {std::move(args), {}},
           {{"str", ir::Attribute::string(std::string(format))}});
}

}  // namespace cutile::detail
