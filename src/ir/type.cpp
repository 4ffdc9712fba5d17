#include "cutile/ir/type.hpp"

#include <array>
#include <functional>
#include <numeric>

#include "cutile/error.hpp"

namespace cutile::ir {

struct TypeStorage {
  TypeKind kind;
  ElementType element_type = ElementType::i1;
  Type inner;                         // pointee, tile/tensor_view element, views' tensor_view
  std::vector<int64_t> shape;         // tile, tensor_view
  std::vector<int64_t> strides;       // tensor_view
  std::vector<int32_t> tile_shape;    // views
  std::vector<int32_t> dim_map;       // partition / strided views
  std::vector<int32_t> traversal_strides;
  std::optional<PaddingValue> padding;
  std::optional<PtrAttr> ptr_attr;    // pointer, tensor_view (13.4+)
  int32_t sparse_dim = 0;
  std::vector<Type> inputs, results;  // function
  size_t hash = 0;
};

namespace {

struct ElementInfo {
  std::string_view name;
  int bits;
  bool is_float;
  Version since;
};

constexpr std::array<ElementInfo, 16> kElements = {{
    {"i1", 1, false, v13_1},        {"i8", 8, false, v13_1},       {"i16", 16, false, v13_1},
    {"i32", 32, false, v13_1},      {"i64", 64, false, v13_1},     {"f16", 16, true, v13_1},
    {"bf16", 16, true, v13_1},      {"f32", 32, true, v13_1},      {"tf32", 19, true, v13_1},
    {"f64", 64, true, v13_1},       {"f8E4M3FN", 8, true, v13_1},  {"f8E5M2", 8, true, v13_1},
    {"f8E8M0FNU", 8, true, v13_2},  {"f4E2M1FN", 4, true, v13_3},  {"i4", 4, false, v13_3},
    {"f8E5M3FNU", 8, true, v13_4},
}};

const ElementInfo& info(ElementType e) { return kElements.at(static_cast<size_t>(e)); }

size_t combine(size_t seed, size_t v) { return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

template <class T>
size_t hash_range(size_t seed, const std::vector<T>& values) {
  seed = combine(seed, values.size());
  for (const T& v : values) seed = combine(seed, std::hash<T>{}(v));
  return seed;
}

size_t compute_hash(const TypeStorage& s) {
  size_t h = combine(static_cast<size_t>(s.kind), static_cast<size_t>(s.element_type));
  if (!s.inner.is_null()) h = combine(h, s.inner.hash());
  h = hash_range(h, s.shape);
  h = hash_range(h, s.strides);
  h = hash_range(h, s.tile_shape);
  h = hash_range(h, s.dim_map);
  h = hash_range(h, s.traversal_strides);
  h = combine(h, s.padding ? static_cast<size_t>(*s.padding) + 1 : 0);
  h = combine(h, s.ptr_attr ? static_cast<size_t>(*s.ptr_attr) + 1 : 0);
  h = combine(h, static_cast<size_t>(s.sparse_dim));
  for (const Type& t : s.inputs) h = combine(h, t.hash());
  h = combine(h, 0xabc);
  for (const Type& t : s.results) h = combine(h, t.hash());
  return h;
}

std::string join_dims(const std::vector<int64_t>& dims) {
  std::string out;
  for (int64_t d : dims) out += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
  return out;
}

template <class T>
std::string list(const std::vector<T>& values, const char* sep) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += sep;
    out += (static_cast<int64_t>(values[i]) == kDynamic ? std::string("?") : std::to_string(values[i]));
  }
  return out;
}

std::string tile_shape_text(const std::vector<int32_t>& shape) { return list(shape, "x"); }

bool is_identity(const std::vector<int32_t>& dim_map) {
  for (size_t i = 0; i < dim_map.size(); ++i)
    if (dim_map[i] != static_cast<int32_t>(i)) return false;
  return true;
}

}  // namespace

std::string_view element_type_name(ElementType e) { return info(e).name; }

std::optional<ElementType> parse_element_type(std::string_view name) {
  for (size_t i = 0; i < kElements.size(); ++i)
    if (kElements[i].name == name) return static_cast<ElementType>(i);
  return std::nullopt;
}

int element_bits(ElementType e) { return info(e).bits; }
bool is_float(ElementType e) { return info(e).is_float; }
bool is_integer(ElementType e) { return !info(e).is_float; }
bool is_arithmetic_float(ElementType e) {
  return e == ElementType::f16 || e == ElementType::bf16 || e == ElementType::f32 || e == ElementType::f64;
}
Version element_type_since(ElementType e) { return info(e).since; }

std::string_view ptr_attr_name(PtrAttr a) {
  static constexpr std::array<std::string_view, 3> names = {"none", "unicast", "multicast"};
  return names.at(static_cast<size_t>(a));
}

std::string_view padding_value_name(PaddingValue p) {
  static constexpr std::array<std::string_view, 5> names = {"zero", "neg_zero", "nan", "pos_inf", "neg_inf"};
  return names.at(static_cast<size_t>(p));
}

Type::Type() = default;

Type Type::make(TypeStorage&& storage) {
  storage.hash = compute_hash(storage);
  Type t;
  t.storage_ = std::make_shared<const TypeStorage>(std::move(storage));
  return t;
}

const TypeStorage& Type::storage() const {
  if (!storage_) throw InternalError("use of a null Type");
  return *storage_;
}

Type Type::element(ElementType e) {
  TypeStorage s{TypeKind::element};
  s.element_type = e;
  return make(std::move(s));
}

Type Type::pointer(Type pointee, std::optional<PtrAttr> ptr_attr) {
  TypeStorage s{TypeKind::pointer};
  s.inner = std::move(pointee);
  s.ptr_attr = ptr_attr;
  return make(std::move(s));
}

Type Type::tile(std::vector<int64_t> shape, Type element) {
  TypeStorage s{TypeKind::tile};
  s.shape = std::move(shape);
  s.inner = std::move(element);
  return make(std::move(s));
}

Type Type::tensor_view(Type element, std::vector<int64_t> shape, std::vector<int64_t> strides,
                       std::optional<PtrAttr> ptr_attr) {
  TypeStorage s{TypeKind::tensor_view};
  s.ptr_attr = ptr_attr;
  s.inner = std::move(element);
  s.shape = std::move(shape);
  s.strides = std::move(strides);
  return make(std::move(s));
}

Type Type::partition_view(std::vector<int32_t> tile_shape, Type tensor_view, std::vector<int32_t> dim_map,
                          std::optional<PaddingValue> padding) {
  TypeStorage s{TypeKind::partition_view};
  if (dim_map.empty()) {
    dim_map.resize(tile_shape.size());
    std::iota(dim_map.begin(), dim_map.end(), 0);
  }
  s.tile_shape = std::move(tile_shape);
  s.inner = std::move(tensor_view);
  s.dim_map = std::move(dim_map);
  s.padding = padding;
  return make(std::move(s));
}

Type Type::gather_scatter_view(std::vector<int32_t> tile_shape, Type tensor_view, int32_t sparse_dim,
                               std::optional<PaddingValue> padding) {
  TypeStorage s{TypeKind::gather_scatter_view};
  s.tile_shape = std::move(tile_shape);
  s.inner = std::move(tensor_view);
  s.sparse_dim = sparse_dim;
  s.padding = padding;
  return make(std::move(s));
}

Type Type::strided_view(std::vector<int32_t> tile_shape, std::vector<int32_t> traversal_strides, Type tensor_view,
                        std::vector<int32_t> dim_map, std::optional<PaddingValue> padding) {
  TypeStorage s{TypeKind::strided_view};
  if (dim_map.empty()) {
    dim_map.resize(tile_shape.size());
    std::iota(dim_map.begin(), dim_map.end(), 0);
  }
  s.tile_shape = std::move(tile_shape);
  s.traversal_strides = std::move(traversal_strides);
  s.inner = std::move(tensor_view);
  s.dim_map = std::move(dim_map);
  s.padding = padding;
  return make(std::move(s));
}

Type Type::function(std::vector<Type> inputs, std::vector<Type> results) {
  TypeStorage s{TypeKind::function};
  s.inputs = std::move(inputs);
  s.results = std::move(results);
  return make(std::move(s));
}

Type Type::token() { return make(TypeStorage{TypeKind::token}); }

TypeKind Type::kind() const { return storage().kind; }

ElementType Type::element_type() const {
  if (kind() != TypeKind::element) throw InternalError("element_type() of non-element type " + str());
  return storage().element_type;
}

Type Type::element() const {
  switch (kind()) {
    case TypeKind::pointer:
    case TypeKind::tile:
    case TypeKind::tensor_view: return storage().inner;
    default: throw InternalError("element() of type " + str());
  }
}

const std::vector<int64_t>& Type::shape() const { return storage().shape; }
const std::vector<int64_t>& Type::strides() const { return storage().strides; }
std::optional<PtrAttr> Type::ptr_attr() const { return storage().ptr_attr; }
const std::vector<int32_t>& Type::tile_shape() const { return storage().tile_shape; }
const std::vector<int32_t>& Type::dim_map() const { return storage().dim_map; }
std::optional<PaddingValue> Type::padding() const { return storage().padding; }
int32_t Type::sparse_dim() const { return storage().sparse_dim; }
const std::vector<int32_t>& Type::traversal_strides() const { return storage().traversal_strides; }
const std::vector<Type>& Type::inputs() const { return storage().inputs; }
const std::vector<Type>& Type::results() const { return storage().results; }

Type Type::tensor_view() const {
  switch (kind()) {
    case TypeKind::partition_view:
    case TypeKind::gather_scatter_view:
    case TypeKind::strided_view: return storage().inner;
    default: throw InternalError("tensor_view() of type " + str());
  }
}

int64_t Type::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape()) n *= d;
  return n;
}

Type Type::view_tile_type() const {
  const std::vector<int32_t>& ts = tile_shape();
  return tile(std::vector<int64_t>(ts.begin(), ts.end()), tensor_view().element());
}

std::string Type::str() const {
  if (is_null()) return "<null>";
  const TypeStorage& s = storage();
  auto padding_prefix = [&] {
    return s.padding ? "padding_value = " + std::string(padding_value_name(*s.padding)) + ", " : std::string();
  };
  auto dim_map_suffix = [&] {
    return is_identity(s.dim_map) ? std::string() : ", dim_map=[" + list(s.dim_map, ", ") + "]";
  };
  switch (s.kind) {
    case TypeKind::element: return std::string(element_type_name(s.element_type));
    case TypeKind::pointer:
      return "ptr<" + s.inner.str() + (s.ptr_attr ? ", <" + std::string(ptr_attr_name(*s.ptr_attr)) + ">" : "") +
             ">";
    case TypeKind::tile: return "tile<" + join_dims(s.shape) + s.inner.str() + ">";
    case TypeKind::tensor_view: {
      std::string out = "tensor_view<" + join_dims(s.shape) + s.inner.str();
      if (!s.shape.empty()) out += ", strides=[" + list(s.strides, ",") + "]";
      if (s.ptr_attr) out += ", #cuda_tile.ptr_attr<" + std::string(ptr_attr_name(*s.ptr_attr)) + ">";
      return out + ">";
    }
    case TypeKind::partition_view:
      return "partition_view<tile=(" + tile_shape_text(s.tile_shape) + "), " + padding_prefix() + s.inner.str() +
             dim_map_suffix() + ">";
    case TypeKind::gather_scatter_view:
      return "gather_scatter_view<tile=(" + tile_shape_text(s.tile_shape) + "), " + padding_prefix() +
             s.inner.str() + ", sparse_dim=" + std::to_string(s.sparse_dim) + ">";
    case TypeKind::strided_view:
      return "strided_view<tile=(" + tile_shape_text(s.tile_shape) + "), traversal_strides=[" +
             list(s.traversal_strides, ",") + "], " + padding_prefix() + s.inner.str() + dim_map_suffix() + ">";
    case TypeKind::function: {
      std::string out = "(";
      for (size_t i = 0; i < s.inputs.size(); ++i) out += (i ? ", " : "") + s.inputs[i].str();
      out += ") -> (";
      for (size_t i = 0; i < s.results.size(); ++i) out += (i ? ", " : "") + s.results[i].str();
      return out + ")";
    }
    case TypeKind::token: return "token";
  }
  return "<bad type>";
}

bool Type::operator==(const Type& other) const {
  if (storage_ == other.storage_) return true;
  if (!storage_ || !other.storage_) return false;
  const TypeStorage& a = *storage_;
  const TypeStorage& b = *other.storage_;
  return a.hash == b.hash && a.kind == b.kind && a.element_type == b.element_type && a.inner == b.inner &&
         a.shape == b.shape && a.strides == b.strides && a.tile_shape == b.tile_shape && a.dim_map == b.dim_map &&
         a.traversal_strides == b.traversal_strides && a.padding == b.padding && a.ptr_attr == b.ptr_attr && a.sparse_dim == b.sparse_dim &&
         a.inputs == b.inputs && a.results == b.results;
}

size_t Type::hash() const { return storage_ ? storage_->hash : 0; }

}  // namespace cutile::ir
