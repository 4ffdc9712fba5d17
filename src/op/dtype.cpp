#include "cutile/op/dtype.hpp"

#include <algorithm>

namespace cutile::op {

std::string_view dtype_name(Dtype dtype) {
  switch (dtype) {
    case Dtype::f32: return "f32";
    case Dtype::f16: return "f16";
    case Dtype::bf16: return "bf16";
    case Dtype::i32: return "i32";
    case Dtype::i64: return "i64";
    case Dtype::f8e4m3fn: return "f8e4m3fn";
    case Dtype::f8e5m2: return "f8e5m2";
    case Dtype::boolean: return "bool";
    case Dtype::u8: return "u8";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (Dtype d : kDtypes)
    if (dtype_name(d) == name) return d;
  return std::nullopt;
}

bool is_dtype_code(int32_t code) { return code >= 0 && code < static_cast<int32_t>(kDtypes.size()); }

ir::ElementType element_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::f32: return ir::ElementType::f32;
    case Dtype::f16: return ir::ElementType::f16;
    case Dtype::bf16: return ir::ElementType::bf16;
    case Dtype::i32: return ir::ElementType::i32;
    case Dtype::i64: return ir::ElementType::i64;
    case Dtype::f8e4m3fn: return ir::ElementType::f8e4m3fn;
    case Dtype::f8e5m2: return ir::ElementType::f8e5m2;
    case Dtype::boolean: return ir::ElementType::i1;
    case Dtype::u8: return ir::ElementType::i8;
  }
  return ir::ElementType::f32;
}

std::optional<Dtype> dtype_of(ir::ElementType element) {
  const auto it = std::find_if(kDtypes.begin(), kDtypes.end(), [&](Dtype d) { return element_type(d) == element; });
  if (it == kDtypes.end()) return std::nullopt;
  return *it;
}

int64_t dtype_size(Dtype dtype) {
  switch (dtype) {
    case Dtype::f32:
    case Dtype::i32: return 4;
    case Dtype::f16:
    case Dtype::bf16: return 2;
    case Dtype::i64: return 8;
    case Dtype::f8e4m3fn:
    case Dtype::f8e5m2:
    case Dtype::boolean:
    case Dtype::u8: return 1;
  }
  return 1;
}

}  // namespace cutile::op
