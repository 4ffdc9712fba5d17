#include "interp/print_format.hpp"

#include <cmath>
#include <cstdio>

#include "interp/numeric.hpp"

namespace cutile::interp {
namespace {

constexpr std::string_view kConversions = "diuoxXeEfFgGaAcsSpn";

struct Conversion {
  std::string flags;  // flags, width and precision as written
  char kind;
};

std::string format_one(const Conversion& c, const Array& a, size_t k) {
  char buffer[128];
  const std::string_view floats = "eEfFgGaA";
  const bool as_float = floats.find(c.kind) != std::string_view::npos || ((c.kind == 's' || c.kind == 'S') && a.is_float());
  int n = 0;
  if (as_float) {
    const double v = a.is_float() ? a.f[k] : static_cast<double>(sign_extend(a.i[k], ir::element_bits(a.element)));
    const std::string spec = "%" + c.flags + (floats.find(c.kind) != std::string_view::npos ? std::string(1, c.kind) : "g");
    n = std::snprintf(buffer, sizeof buffer, spec.c_str(), v);
  } else if (c.kind == 'n') {
    return "";
  } else {
    const bool is_signed = c.kind == 'd' || c.kind == 'i' || c.kind == 's' || c.kind == 'S' || c.kind == 'c';
    const std::string kind = c.kind == 'p' ? "#llx" : c.kind == 'c' || c.kind == 's' || c.kind == 'S' ? "lld" : std::string("ll") + c.kind;
    const std::string spec = "%" + c.flags + kind;
    if (a.is_float()) {
      const double t = std::trunc(a.f[k]);
      const long long v = std::isfinite(t) ? static_cast<long long>(t) : 0;
      n = std::snprintf(buffer, sizeof buffer, spec.c_str(), v);
    } else if (is_signed && !a.pointer) {
      n = std::snprintf(buffer, sizeof buffer, spec.c_str(), static_cast<long long>(sign_extend(a.i[k], ir::element_bits(a.element))));
    } else {
      n = std::snprintf(buffer, sizeof buffer, spec.c_str(), static_cast<unsigned long long>(a.i[k]));
    }
  }
  return std::string(buffer, static_cast<size_t>(std::max(0, std::min(n, static_cast<int>(sizeof buffer) - 1))));
}

void format_tile(const Conversion& c, const Array& a, size_t dim, size_t& k, std::string& out) {
  if (dim == a.shape.size()) {
    out += format_one(c, a, k++);
    return;
  }
  out += '[';
  for (int64_t j = 0; j < a.shape[dim]; ++j) {
    if (j) out += ", ";
    format_tile(c, a, dim + 1, k, out);
  }
  out += ']';
}

}  // namespace

std::string format_print(std::string_view format, std::span<const Array* const> args) {
  std::string out;
  size_t next = 0;
  for (size_t pos = 0; pos < format.size(); ++pos) {
    if (format[pos] != '%') {
      out += format[pos];
      continue;
    }
    if (pos + 1 < format.size() && format[pos + 1] == '%') {
      out += '%';
      ++pos;
      continue;
    }
    size_t end = pos + 1;
    while (end < format.size() && kConversions.find(format[end]) == std::string_view::npos) ++end;
    if (end == format.size() || next >= args.size()) {  // the verifier rules these out; print the rest as is
      out += format.substr(pos);
      break;
    }
    Conversion c{"", format[end]};
    for (char ch : format.substr(pos + 1, end - pos - 1))
      if (std::string_view("hlLqjzt*").find(ch) == std::string_view::npos) c.flags += ch;  // length modifiers are ours to pick
    size_t k = 0;
    format_tile(c, *args[next++], 0, k, out);
    pos = end;
  }
  return out;
}

}  // namespace cutile::interp
