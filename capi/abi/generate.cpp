// cutile-abi-gen: the C ABI of every registered op, from the ops' descriptions.
//
//   cutile-abi-gen header TEMPLATE OUT   kernels.h: the template with the dtype codes and the ops filled in
//   cutile-abi-gen entries OUT           the C entry of every op, a call of cutile::capi::call
//
// The build runs both; the committed capi/include/cutile_cpp/kernels.h is held to the header by a test.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cutile/op/registry.hpp"

namespace {

using namespace cutile::op;

constexpr size_t kWidth = 110;

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// `text` as comment lines " * ...": a line that fits stays as it is (its alignment too); a longer one is
// wrapped at kWidth, the continuation lines of an indented line indented two more.
void comment_lines(std::string& out, std::string_view text, std::string_view indent = "") {
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    const size_t lead = line.find_first_not_of(' ');
    if (lead == std::string::npos) {
      out += " *\n";
      continue;
    }
    std::string current = " * " + std::string(indent) + line;
    if (current.size() <= kWidth) {
      out += current + "\n";
      continue;
    }
    const std::string hang(indent.size() + lead + (indent.empty() ? 0 : 2), ' ');
    current = " * " + std::string(indent) + line.substr(0, lead);
    std::istringstream words(line.substr(lead));
    std::string word;
    bool first = true;
    while (words >> word) {
      if (!first && current.size() + 1 + word.size() > kWidth) {
        out += current + "\n";
        current = " * " + hang;
        first = true;
      }
      current += (first ? "" : " ") + word;
      first = false;
    }
    out += current + "\n";
  }
}

std::string c_type(const ScalarSpec& s) {
  switch (s.type) {
    case ScalarType::real: return "double";
    case ScalarType::integer: return "int64_t";
    case ScalarType::flag:
    case ScalarType::choice: return "int32_t";
  }
  return "?";
}

std::string default_text(const ScalarSpec& s) {
  if (!s.default_value) return "required";
  if (s.type == ScalarType::choice)
    return "default CUTILE_CPP_" + upper(s.choices->name) + "_" +
           upper(s.choices->values[static_cast<size_t>(*s.default_value)]);
  if (s.type == ScalarType::flag) return *s.default_value != 0 ? "default 1" : "default 0";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "default %.9g", *s.default_value);
  return buffer;
}

struct Parameter {
  std::string type, name;
};

// A list is its array of descriptors and their count.
std::vector<Parameter> parameters(const OpSpec& spec) {
  std::vector<Parameter> params;
  for (const TensorSpec& t : spec.tensors) {
    params.push_back({"const cutile_cpp_tensor*", std::string(t.name)});
    if (t.is_list()) params.push_back({"int64_t", std::string(t.name) + "_count"});
  }
  for (const ScalarSpec& s : spec.scalars) params.push_back({c_type(s), std::string(s.name)});
  params.push_back({"int32_t", "device_id"});
  params.push_back({"void*", "stream"});
  return params;
}

// "head(p0, p1, ...)" + tail, wrapped with continuation lines aligned after the '('.
std::string wrapped_call(const std::string& head, const std::vector<std::string>& items, const std::string& tail) {
  std::string out = head + "(";
  const std::string indent(head.size() + 1, ' ');
  size_t column = out.size();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string item = items[i] + (i + 1 < items.size() ? "," : ")" + tail);
    if (i > 0 && column + 1 + item.size() > kWidth) {
      out += "\n" + indent;
      column = indent.size();
    } else if (i > 0) {
      out += " ";
      ++column;
    }
    out += item;
    column += item.size();
  }
  if (items.empty()) out += ")" + tail;
  return out;
}

std::string prototype(const OpSpec& spec, const std::string& prefix) {
  std::vector<std::string> items;
  for (const Parameter& p : parameters(spec)) items.push_back(p.type + " " + p.name);
  return wrapped_call(prefix + "int32_t cutile_cpp_" + std::string(spec.name), items, "");
}

std::string role_text(Role r) { return r == Role::in ? "in   " : r == Role::out ? "out  " : "inout"; }

void op_comment(std::string& out, const OpSpec& spec) {
  out += "/* cutile_cpp_" + std::string(spec.name) + ":\n";
  comment_lines(out, spec.doc, "");
  size_t name_width = 0, type_width = 0;
  for (const TensorSpec& t : spec.tensors) {
    name_width = std::max(name_width, t.name.size());
    type_width = std::max(type_width, t.type.size());
  }
  for (const TensorSpec& t : spec.tensors) {
    std::string line = role_text(t.role) + " " + std::string(t.name) + std::string(name_width - t.name.size() + 2, ' ') +
                       std::string(t.type) + (t.optional ? " (optional)" : "") +
                       (t.is_list() ? " (a list of " + std::string(t.list_length) + ")" : "") +
                       (t.transposed_by.empty() ? "" : " (given transposed when " + std::string(t.transposed_by) + ")");
    if (!t.doc.empty()) line += std::string(type_width - t.type.size() + 2, ' ') + std::string(t.doc);
    comment_lines(out, line, "  ");
  }
  for (const DtypeVar& v : spec.dtypes) {
    std::string list;
    for (Dtype d : v.dtypes) list += (list.empty() ? "" : ", ") + std::string(dtype_name(d));
    comment_lines(out, std::string(v.name) + ": " + list, "  ");
  }
  for (const ScalarSpec& s : spec.scalars) {
    std::string line = std::string(s.name) + ": " + (s.choices ? "cutile_cpp_" + std::string(s.choices->name) : c_type(s)) +
                       (s.type == ScalarType::flag ? " (0 or 1)" : "") + ", " + default_text(s);
    if (!s.valid.empty()) line += ", valid when " + std::string(s.valid);
    if (!s.doc.empty()) line += ": " + std::string(s.doc);
    comment_lines(out, line, "  ");
  }
  for (const Requirement& r : spec.rules) {
    const std::string status = r.problem == Problem::unsupported_shape ? "UNSUPPORTED_SHAPE" : "SHAPE_MISMATCH";
    comment_lines(out, "requires " + std::string(r.condition) + " (else " + status + "): " + std::string(r.why), "  ");
  }
  if (!spec.backward.empty()) comment_lines(out, "Its backward is cutile_cpp_" + std::string(spec.backward) + ".", "  ");
  if (!spec.provenance.empty()) comment_lines(out, "Ports " + std::string(spec.provenance) + ".", "  ");
  out += " */\n";
}

void choice_enum(std::string& out, const ChoiceSet& set) {
  out += "/* cutile_cpp_" + std::string(set.name);
  if (!set.doc.empty()) {
    out += ":\n";
    comment_lines(out, set.doc);
    out += " */\n";
  } else {
    out += " */\n";
  }
  out += "typedef enum cutile_cpp_" + std::string(set.name) + " {\n";
  for (size_t i = 0; i < set.values.size(); ++i)
    out += "  CUTILE_CPP_" + upper(set.name) + "_" + upper(set.values[i]) + " = " + std::to_string(i) +
           (i + 1 < set.values.size() ? "," : "") + "\n";
  out += "} cutile_cpp_" + std::string(set.name) + ";\n\n";
}

// Ops grouped by family (in the order families first appear by name), then by name.
std::vector<const OpSpec*> ordered_ops() {
  std::vector<const OpSpec*> ops(registered_ops().begin(), registered_ops().end());
  std::stable_sort(ops.begin(), ops.end(), [](const OpSpec* a, const OpSpec* b) { return a->family < b->family; });
  return ops;
}

std::string ops_section() {
  std::string out;
  std::string family;
  std::set<const ChoiceSet*> emitted;
  for (const OpSpec* spec : ordered_ops()) {
    if (spec->family != family) {
      family = spec->family;
      out += "\n/* ---- " + family + " ---- */\n";
    }
    out += "\n";
    for (const ScalarSpec& s : spec->scalars)
      if (s.choices && emitted.insert(s.choices).second) choice_enum(out, *s.choices);
    op_comment(out, *spec);
    out += prototype(*spec, "CUTILE_CPP_API ") + ";\n";
  }
  return out;
}

std::string dtypes_section() {
  std::string out;
  for (size_t i = 0; i < kDtypes.size(); ++i)
    out += "  CUTILE_CPP_" + upper(dtype_name(kDtypes[i])) + " = " + std::to_string(i) + (i + 1 < kDtypes.size() ? "," : "") +
           (i + 1 < kDtypes.size() ? "\n" : "");
  return out;
}

std::string entries() {
  std::string out =
      "// The C entry of every op, generated by cutile-abi-gen from the ops' descriptions: each passes its\n"
      "// arguments to cutile::capi::call.\n"
      "#include \"call.hpp\"\n\n"
      "extern \"C\" {\n";
  for (const OpSpec* spec : registered_ops()) {
    const std::string name(spec->name);
    out += "\n" + prototype(*spec, "") + " {\n";
    out += "  static const cutile::op::OpSpec* const spec = cutile::op::find_op(\"" + name + "\");\n";
    std::vector<std::string> tensors, counts, scalars;
    bool lists = false;
    for (const TensorSpec& t : spec->tensors) {
      tensors.push_back(std::string(t.name));
      counts.push_back(t.is_list() ? std::string(t.name) + "_count" : "1");
      lists = lists || t.is_list();
    }
    for (const ScalarSpec& s : spec->scalars)
      scalars.push_back(s.type == ScalarType::real ? "{.real = " + std::string(s.name) + "}"
                                                   : "{.integer = " + std::string(s.name) + "}");
    auto joined = [](const std::vector<std::string>& items) {
      std::string list;
      for (const std::string& item : items) list += (list.empty() ? "" : ", ") + item;
      return list;
    };
    out += "  const cutile_cpp_tensor* const tensors[] = {" + joined(tensors) + "};\n";
    if (lists) out += "  const int64_t counts[] = {" + joined(counts) + "};\n";
    if (!scalars.empty()) out += "  const cutile_cpp_scalar scalars[] = {" + joined(scalars) + "};\n";
    out += "  return cutile::capi::call(spec, \"cutile_cpp_" + name + "\", tensors, " + (lists ? "counts" : "{}") + ", " +
           (scalars.empty() ? "{}" : "scalars") + ", device_id, stream);\n";
    out += "}\n";
  }
  out += "\n}  // extern \"C\"\n";
  return out;
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void replace(std::string& text, const std::string& placeholder, const std::string& value) {
  const size_t at = text.find(placeholder);
  if (at == std::string::npos) throw std::runtime_error("the template has no " + placeholder);
  text.replace(at, placeholder.size(), value);
}

// Writes `text` to `path` unless it already holds it, so that an unchanged header rebuilds nothing.
void write_if_changed(const char* path, const std::string& text) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream old;
      old << in.rdbuf();
      if (old.str() == text) return;
    }
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error(std::string("cannot write ") + path);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    for (const OpSpec* spec : registered_ops()) {
      const auto found = problems(*spec);
      for (const std::string& p : found) std::fprintf(stderr, "cutile-abi-gen: %s\n", p.c_str());
      if (!found.empty()) return 1;
    }
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "header" && argc == 4) {
      std::string text = read_file(argv[2]);
      replace(text, "@DTYPES@", dtypes_section());
      replace(text, "@OPS@", ops_section());
      write_if_changed(argv[3], text);
      return 0;
    }
    if (command == "entries" && argc == 3) {
      write_if_changed(argv[2], entries());
      return 0;
    }
    std::fprintf(stderr, "usage: cutile-abi-gen header TEMPLATE OUT | entries OUT\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cutile-abi-gen: %s\n", e.what());
    return 1;
  }
}
