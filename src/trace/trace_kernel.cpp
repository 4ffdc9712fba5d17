#include "cutile/detail/trace_kernel.hpp"

#include <cctype>

#include "cutile/ir/dead_code.hpp"

namespace cutile::detail {

std::string kernel_name_from_signature(std::string_view pretty) {
  const size_t paren = pretty.find('(');
  if (paren == std::string_view::npos) return "kernel";
  std::string_view head = pretty.substr(0, paren);
  // A lambda's signature names its enclosing function with the template arguments: f<float, 4>(...)::<lambda()>.
  if (head.ends_with('>')) {
    int depth = 0;
    size_t open = head.size();
    while (open-- > 0) {
      depth += head[open] == '>' ? 1 : head[open] == '<' ? -1 : 0;
      if (depth == 0) break;
    }
    if (open < head.size()) head = head.substr(0, open);
  }
  size_t start = head.size();
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(head[start - 1])) || head[start - 1] == '_')) --start;
  std::string name(head.substr(start));
  return name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "kernel" : name;
}

void finish_trace(TraceContext& ctx) {
  ctx.builder().return_();
  ir::remove_dead_code(ctx.function());
  ctx.function().set_name(kernel_name_from_signature(ctx.kernel_function()));
}

}  // namespace cutile::detail
