// Type validity, dense constants and optimization hints: the rules that ops of every family and the
// kernel itself (parameters, entry hints, globals) share.
#include "ir/verifier/rules.hpp"

#include <algorithm>
#include <array>

namespace cutile::ir::verifier {

namespace {

constexpr int64_t kMaxTileElements = int64_t{1} << 24;

/// Storage bytes of one element in a dense constant (sub-byte types take a whole byte).
int64_t storage_bytes(E e) {
  return (element_bits(e) + 7) / 8;
}

std::optional<std::string> tile_shape_problem(const std::vector<int64_t>& shape, const Type& element) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (!is_pow2(d)) return "tile dimensions must be positive powers of two, got " + shape_text(shape);
    if (n > kMaxTileElements / d)
      return "tile " + shape_text(shape) + " exceeds the maximum of " + std::to_string(kMaxTileElements) +
             " elements";
    n *= d;
  }
  if (element.is(TypeKind::element) && element.element_type() == E::f4e2m1fn &&
      (shape.empty() || std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d % 2 != 0; })))
    return "f4E2M1FN tiles need an even number of elements, got " + shape_text(shape);
  return std::nullopt;
}

std::optional<std::string> view_problem(const Type& t, Version version) {
  const Type tv = t.tensor_view();
  if (!tv.is(TypeKind::tensor_view)) return "a view must wrap a tensor_view, got " + tv.str();
  if (auto p = type_problem(tv, version)) return p;
  const std::vector<int32_t>& ts = t.tile_shape();
  if (ts.empty()) return "view tile shape must have rank >= 1";
  if (static_cast<int64_t>(ts.size()) != tv.rank())
    return "view tile rank " + std::to_string(ts.size()) + " must equal the tensor_view rank " +
           std::to_string(tv.rank());
  if (!t.is(TypeKind::gather_scatter_view)) {
    const std::vector<int32_t>& dm = t.dim_map();
    if (dm.size() != ts.size())
      return "dim_map must map all " + std::to_string(ts.size()) + " tile dimensions, got " + shape_text(dm);
    std::vector<bool> used(ts.size(), false);
    for (int32_t d : dm) {
      if (d < 0 || static_cast<size_t>(d) >= ts.size() || used[static_cast<size_t>(d)])
        return "dim_map must be a permutation of the tensor_view dimensions, got " + shape_text(dm);
      used[static_cast<size_t>(d)] = true;
    }
  } else if (t.sparse_dim() < 0 || static_cast<size_t>(t.sparse_dim()) >= ts.size()) {
    return "sparse_dim " + std::to_string(t.sparse_dim()) + " must be < tile rank " +
           std::to_string(ts.size());
  }
  if (t.is(TypeKind::strided_view)) {
    const std::vector<int32_t>& st = t.traversal_strides();
    if (st.size() != ts.size() || std::any_of(st.begin(), st.end(), [](int32_t s) { return s <= 0; }))
      return "traversal_strides must be " + std::to_string(ts.size()) + " positive values, got " +
             shape_text(st);
  }
  if (auto p = tile_shape_problem(std::vector<int64_t>(ts.begin(), ts.end()), tv.element())) return p;
  if (t.padding() && *t.padding() != PaddingValue::zero && !is_float(tv.element().element_type()))
    return "padding_value " + std::string(padding_value_name(*t.padding())) +
           " needs a float element type, got " + tv.element().str();
  return std::nullopt;
}

constexpr std::array<std::string_view, 11> kArchKeys = {
    "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};

std::optional<int64_t> hint_int(const Attribute& a) {
  if (a.kind == AttrKind::integer || a.kind == AttrKind::boolean) return a.int_value;
  return std::nullopt;
}

/// Expected raw storage of a dense constant: one element (splat) or all of them.
bool dense_size_ok(const Attribute& value) {
  const Type& t = value.type;
  const E e = t.element().element_type();
  const int64_t n = t.num_elements();
  const int64_t size = static_cast<int64_t>(value.raw.size());
  if (size == 0) return false;
  if (e == E::i1) {
    if (size == (n + 7) / 8) return true;
    return size == 1 && (value.raw[0] == 0x00 || value.raw[0] == 0xFF);
  }
  return size == storage_bytes(e) || size == storage_bytes(e) * n;
}

}  // namespace

std::optional<std::string> type_problem(const Type& t, Version version) {
  if (t.is_null()) return "missing type";
  switch (t.kind()) {
    case TypeKind::element:
      if (element_type_since(t.element_type()) > version)
        return "element type " + t.str() + " requires bytecode " + element_type_since(t.element_type()).str();
      return std::nullopt;
    case TypeKind::pointer:
      if (!t.element().is(TypeKind::element) || !is_number(t.element().element_type()))
        return "pointee must be an integer or float type, got " + t.str();
      return type_problem(t.element(), version);
    case TypeKind::tile:
      if (!t.element().is(TypeKind::element) && !t.element().is(TypeKind::pointer))
        return "tile element must be a number or a pointer, got " + t.str();
      if (auto p = type_problem(t.element(), version)) return p;
      return tile_shape_problem(t.shape(), t.element());
    case TypeKind::tensor_view: {
      if (!t.element().is(TypeKind::element) || !is_number(t.element().element_type()))
        return "tensor_view element must be an integer or float type, got " + t.str();
      if (auto p = type_problem(t.element(), version)) return p;
      if (t.shape().size() != t.strides().size())
        return "tensor_view shape and strides must have the same rank, got " + t.str();
      auto bad = [](int64_t v) { return v <= 0 && v != kDynamic; };
      if (std::any_of(t.shape().begin(), t.shape().end(), bad) ||
          std::any_of(t.strides().begin(), t.strides().end(), bad))
        return "tensor_view static sizes and strides must be > 0, got " + t.str();
      return std::nullopt;
    }
    case TypeKind::strided_view:
    case TypeKind::gather_scatter_view:
      if (version < v13_3) return "type " + t.str() + " requires bytecode 13.3";
      return view_problem(t, version);
    case TypeKind::partition_view:
      return view_problem(t, version);
    case TypeKind::function:
      for (const Type& in : t.inputs())
        if (auto p = type_problem(in, version)) return p;
      return std::nullopt;
    case TypeKind::token:
      return std::nullopt;
  }
  return "unknown type";
}

/// `allowed` lists the hint names valid for the op (entry or load/store kind).
void check_hints(const Attribute& hints, const std::vector<std::string_view>& allowed, Version version) {
  if (hints.kind != AttrKind::optimization_hints)
    fail("optimization hints must be an optimization_hints attribute {arch: {hint: value}}");
  for (const auto& [arch, dict] : hints.entries) {
    const bool is_default = arch == "default";
    if (!is_default && std::find(kArchKeys.begin(), kArchKeys.end(), arch) == kArchKeys.end())
      fail("unknown optimization hint architecture key '" + arch + "' (expected sm_80 .. sm_121 or default)");
    if (is_default && version < v13_3) fail("optimization hint key 'default' requires bytecode 13.3");
    if (dict.kind != AttrKind::dictionary) fail("optimization hints for '" + arch + "' must be a dictionary");
    const bool ampere_or_ada = arch.starts_with("sm_8");
    for (const auto& [key, value] : dict.entries) {
      const std::string where = arch + "." + key;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail("unknown optimization hint '" + where + "' for this op");
      const std::optional<int64_t> v = hint_int(value);
      if (key == "allow_tma") {
        if (value.kind != AttrKind::boolean &&
            !(value.kind == AttrKind::integer && value.type.is(TypeKind::element) &&
              value.type.element_type() == E::i1))
          fail("optimization hint " + where + " must be a boolean");
        continue;
      }
      if (!v || value.kind != AttrKind::integer) fail("optimization hint " + where + " must be an integer");
      if (key == "num_cta_in_cga") {
        if (ampere_or_ada && *v != 1)
          fail("optimization hint " + where + " must be 1 on sm_8x, got " + std::to_string(*v));
        if (!is_pow2(*v) || *v > 16)
          fail("optimization hint " + where + " must be a power of two <= 16, got " + std::to_string(*v));
      } else if (key == "num_worker_warps_per_cta") {
        if (version < v13_3) fail("optimization hint num_worker_warps_per_cta requires bytecode 13.3");
        if (!is_pow2(*v) || *v > 32)
          fail("optimization hint " + where + " must be a power of two <= 32, got " + std::to_string(*v));
      } else if (key == "occupancy") {
        if (*v < 1 || *v > 32)
          fail("optimization hint " + where + " must be in [1, 32], got " + std::to_string(*v));
      } else if (key == "latency") {
        if (*v < 1 || *v > 10)
          fail("optimization hint " + where + " must be in [1, 10], got " + std::to_string(*v));
      }
    }
  }
}

std::optional<std::string> dense_problem(const Attribute& value, Version version) {
  if (value.kind != AttrKind::dense_elements) return "value must be a dense elements attribute";
  if (!value.type.is(TypeKind::tile) || !value.type.element().is(TypeKind::element) ||
      !is_number(value.type.element().element_type()))
    return "dense value must be a tile of integers or floats, got " + value.type.str();
  if (auto p = type_problem(value.type, version)) return p;
  if (!dense_size_ok(value))
    return "dense storage of " + std::to_string(value.raw.size()) + " bytes does not fit " +
           value.type.str() + " (expected one element or all of them)";
  return std::nullopt;
}

}  // namespace cutile::ir::verifier
