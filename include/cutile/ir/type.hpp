// Tile IR types: element types, pointers, tiles, views, function signatures and tokens.
// A Type is an immutable value with structural equality; copies share storage.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cutile/ir/version.hpp"

namespace cutile::ir {

/// Scalar element types, in the order of their bytecode type tags where one exists.
enum class ElementType : uint8_t {
  i1, i8, i16, i32, i64,
  f16, bf16, f32, tf32, f64,
  f8e4m3fn, f8e5m2, f8e8m0fnu, f4e2m1fn, i4,
  f8e5m3fnu,  ///< 13.4 developer preview
};

std::string_view element_type_name(ElementType e);  ///< "i32", "f8E4M3FN", ...
std::optional<ElementType> parse_element_type(std::string_view name);
/// Bits of the value as the hardware holds it (tf32: 19, f4: 4, i1: 1).
int element_bits(ElementType e);
bool is_float(ElementType e);
bool is_integer(ElementType e);
/// f16, bf16, f32, f64: the types that float arithmetic ops accept.
bool is_arithmetic_float(ElementType e);
/// Bytecode version that introduced the element type.
Version element_type_since(ElementType e);

enum class TypeKind : uint8_t {
  element,              ///< a bare element type (appears inside other types, never as an SSA value)
  pointer,              ///< ptr<T>
  tile,                 ///< tile<shape x elem>; rank 0 is a scalar
  tensor_view,          ///< tensor_view<shape x elem, strides=[...]>
  partition_view,       ///< partition_view<tile=(...), [padding_value = p,] tensor_view<...>[, dim_map=[...]]>
  gather_scatter_view,  ///< 13.3
  strided_view,         ///< 13.3
  function,
  token,
};

enum class PaddingValue : uint8_t { zero, neg_zero, nan, pos_inf, neg_inf };
std::string_view padding_value_name(PaddingValue p);

/// The address-space marker a 13.4+ pointer or tensor_view may carry (`ptr<f32, <multicast>>`). `none`
/// is written explicitly (13.4); unicast and multicast are 13.5. A type without the marker has nullopt.
enum class PtrAttr : uint8_t { none, unicast, multicast };
std::string_view ptr_attr_name(PtrAttr a);

/// Marks a dynamic extent or stride (MLIR's kDynamic).
inline constexpr int64_t kDynamic = INT64_MIN;

struct TypeStorage;

class Type {
 public:
  Type();  ///< the null type; only valid as a placeholder

  static Type element(ElementType e);
  static Type pointer(Type pointee, std::optional<PtrAttr> ptr_attr = std::nullopt);
  static Type tile(std::vector<int64_t> shape, Type element);
  static Type scalar(ElementType e) { return tile({}, element(e)); }
  /// tile<ptr<e>>: how kernels receive pointers.
  static Type scalar_tile_of_pointer(ElementType e) { return tile({}, pointer(element(e))); }
  static Type tensor_view(Type element, std::vector<int64_t> shape, std::vector<int64_t> strides,
                          std::optional<PtrAttr> ptr_attr = std::nullopt);
  static Type partition_view(std::vector<int32_t> tile_shape, Type tensor_view, std::vector<int32_t> dim_map,
                             std::optional<PaddingValue> padding = std::nullopt);
  static Type gather_scatter_view(std::vector<int32_t> tile_shape, Type tensor_view, int32_t sparse_dim,
                                  std::optional<PaddingValue> padding = std::nullopt);
  static Type strided_view(std::vector<int32_t> tile_shape, std::vector<int32_t> traversal_strides,
                           Type tensor_view, std::vector<int32_t> dim_map,
                           std::optional<PaddingValue> padding = std::nullopt);
  static Type function(std::vector<Type> inputs, std::vector<Type> results);
  static Type token();

  bool is_null() const { return storage_ == nullptr; }
  TypeKind kind() const;
  bool is(TypeKind k) const { return !is_null() && kind() == k; }

  // element
  ElementType element_type() const;  ///< the element kind of an element type
  // pointer: pointee; tile / tensor_view: element
  Type element() const;
  // tile and tensor_view
  const std::vector<int64_t>& shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  int64_t num_elements() const;                  ///< tile only
  bool is_scalar_tile() const { return is(TypeKind::tile) && shape().empty(); }
  const std::vector<int64_t>& strides() const;   ///< tensor_view
  /// pointer and tensor_view: the address-space marker, nullopt when absent (and for other kinds).
  std::optional<PtrAttr> ptr_attr() const;
  // views
  const std::vector<int32_t>& tile_shape() const;
  Type tensor_view() const;
  const std::vector<int32_t>& dim_map() const;   ///< partition and strided views (always full length)
  std::optional<PaddingValue> padding() const;
  int32_t sparse_dim() const;                     ///< gather_scatter_view
  const std::vector<int32_t>& traversal_strides() const;  ///< strided_view
  /// The tile type a view loads and stores: tile<tile_shape x element of its tensor_view>.
  Type view_tile_type() const;
  // function
  const std::vector<Type>& inputs() const;
  const std::vector<Type>& results() const;

  /// Text in the official syntax without the dialect prefix, e.g. "tile<128x64xf16>".
  std::string str() const;

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }
  size_t hash() const;

 private:
  static Type make(TypeStorage&& storage);
  const TypeStorage& storage() const;
  std::shared_ptr<const TypeStorage> storage_;
};

struct TypeHash {
  size_t operator()(const Type& t) const { return t.hash(); }
};

}  // namespace cutile::ir
