#include "cutile/op/describe.hpp"

#include <cmath>
#include <cstdio>

#include "compiled.hpp"
#include "cutile/op/registry.hpp"

namespace cutile::op {
namespace {

class Json {
 public:
  std::string take() { return std::move(text_); }

  Json& begin_object() { return open('{'); }
  Json& end_object() { return close('}'); }
  Json& begin_array() { return open('['); }
  Json& end_array() { return close(']'); }

  Json& key(std::string_view k) {
    separate();
    string(k);
    text_ += ": ";
    fresh_ = true;
    return *this;
  }
  Json& value(std::string_view v) {
    separate();
    string(v);
    return *this;
  }
  Json& value(const char* v) { return value(std::string_view(v)); }
  Json& value(bool v) {
    separate();
    text_ += v ? "true" : "false";
    return *this;
  }
  Json& value(double v) {
    separate();
    if (!std::isfinite(v)) {  // as Python's json writes and reads them
      text_ += std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
      return *this;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    text_ += buffer;
    return *this;
  }
  Json& value(int64_t v) {
    separate();
    text_ += std::to_string(v);
    return *this;
  }
  Json& null() {
    separate();
    text_ += "null";
    return *this;
  }
  /// Pre-formatted JSON.
  Json& raw(std::string_view json) {
    separate();
    text_ += json;
    return *this;
  }

 private:
  Json& open(char c) {
    separate();
    text_ += c;
    fresh_ = true;
    return *this;
  }
  Json& close(char c) {
    text_ += c;
    fresh_ = false;
    return *this;
  }
  void separate() {
    if (!fresh_) text_ += ", ";
    fresh_ = false;
  }
  void string(std::string_view s) {
    text_ += '"';
    for (const char c : s) {
      switch (c) {
        case '"': text_ += "\\\""; break;
        case '\\': text_ += "\\\\"; break;
        case '\n': text_ += "\\n"; break;
        case '\t': text_ += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            text_ += buffer;
          } else {
            text_ += c;  // UTF-8 passes through
          }
      }
    }
    text_ += '"';
  }

  std::string text_;
  bool fresh_ = true;
};

std::string_view role_name(Role r) { return r == Role::in ? "in" : r == Role::out ? "out" : "inout"; }
std::string_view view_name(View v) {
  switch (v) {
    case View::exact: return "exact";
    case View::rows: return "rows";
    case View::flat: return "flat";
    case View::leading_ones: return "leading_ones";
  }
  return "?";
}
std::string_view scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::real: return "real";
    case ScalarType::integer: return "integer";
    case ScalarType::flag: return "flag";
    case ScalarType::choice: return "choice";
  }
  return "?";
}
std::string_view problem_name(Problem p) {
  switch (p) {
    case Problem::unsupported_dtype: return "unsupported_dtype";
    case Problem::dtype_mismatch: return "dtype_mismatch";
    case Problem::rank_mismatch: return "rank_mismatch";
    case Problem::shape_mismatch: return "shape_mismatch";
    case Problem::unsupported_shape: return "unsupported_shape";
    case Problem::aliasing: return "aliasing";
    case Problem::invalid_argument: return "invalid_argument";
  }
  return "?";
}

}  // namespace

std::string describe_json(const OpSpec& spec) {
  const detail::CompiledSpec& c = detail::compiled(spec);
  Json j;
  j.begin_object();
  j.key("name").value(spec.name);
  j.key("c_function").value("cutile_cpp_" + std::string(spec.name));
  j.key("family").value(spec.family);
  j.key("doc").value(spec.doc);
  j.key("provenance").value(spec.provenance);
  j.key("dtypes").begin_object();
  for (const DtypeVar& v : spec.dtypes) {
    j.key(v.name).begin_array();
    for (Dtype d : v.dtypes) j.value(dtype_name(d));
    j.end_array();
  }
  j.end_object();
  j.key("tensors").begin_array();
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const TensorSpec& t = spec.tensors[i];
    j.begin_object();
    j.key("name").value(t.name);
    j.key("role").value(role_name(t.role));
    j.key("type").value(t.type);
    j.key("rank").value(static_cast<int64_t>(c.tensors[i].dims.size()));
    if (c.tensors[i].dtype_var >= 0)
      j.key("dtype").value(spec.dtypes[static_cast<size_t>(c.tensors[i].dtype_var)].name);
    else
      j.key("dtype").value(dtype_name(c.tensors[i].fixed));
    j.key("doc").value(t.doc);
    j.key("view").value(view_name(t.view));
    j.key("like").value(t.like);
    j.key("optional").value(t.optional);
    j.key("transposed_by").value(t.transposed_by);
    j.key("list").value(t.list_length);
    j.end_object();
  }
  j.end_array();
  j.key("scalars").begin_array();
  for (const ScalarSpec& s : spec.scalars) {
    j.begin_object();
    j.key("name").value(s.name);
    j.key("type").value(scalar_type_name(s.type));
    if (s.default_value)
      j.key("default").value(*s.default_value);
    else
      j.key("default").null();
    j.key("choice_set").value(s.choices ? s.choices->name : std::string_view());
    j.key("choices").begin_array();
    if (s.choices)
      for (std::string_view v : s.choices->values) j.value(v);
    j.end_array();
    j.key("valid").value(s.valid);
    j.key("doc").value(s.doc);
    j.end_object();
  }
  j.end_array();
  j.key("rules").begin_array();
  for (const Requirement& r : spec.rules)
    j.begin_object().key("condition").value(r.condition).key("problem").value(problem_name(r.problem)).key("why").value(r.why).end_object();
  j.end_array();
  j.key("backward").value(spec.backward);
  j.key("tilegym").begin_object();
  j.key("name").value(spec.tilegym.name);
  j.key("signature").value(spec.tilegym.signature);
  j.key("renames").value(spec.tilegym.renames);
  j.key("ignored").value(spec.tilegym.ignored);
  j.key("unsupported").value(spec.tilegym.unsupported);
  j.key("returns").value(spec.tilegym.returns);
  j.end_object();
  j.key("parity").begin_array();
  for (const ParityCase& p : spec.parity)
    j.begin_object().key("reference").value(p.reference).key("kernel").value(p.kernel).key("config").value(p.config).end_object();
  j.end_array();
  j.key("tuning").begin_array();
  for (const Tunable& t : spec.tuning) {
    j.begin_object().key("name").value(t.name).key("doc").value(t.doc).key("candidates").begin_array();
    for (const int64_t candidate : t.candidates) j.value(candidate);
    j.end_array().end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

std::string describe_all_json(int abi_version) {
  Json j;
  j.begin_object();
  j.key("abi_version").value(static_cast<int64_t>(abi_version));
  j.key("dtypes").begin_array();
  for (Dtype d : kDtypes) j.value(dtype_name(d));
  j.end_array();
  j.key("ops").begin_array();
  for (const OpSpec* spec : registered_ops()) j.raw(describe_json(*spec));
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace cutile::op
