// The element types an op's tensors may have at the library's boundaries (the C ABI, Python): the ones
// with a host layout. Their order is the C ABI's cutile_cpp_dtype codes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "cutile/ir/type.hpp"

namespace cutile::op {

enum class Dtype : int32_t { f32, f16, bf16, i32, i64, f8e4m3fn, f8e5m2, boolean, u8 };

inline constexpr std::array<Dtype, 9> kDtypes = {Dtype::f32,      Dtype::f16,    Dtype::bf16,
                                                 Dtype::i32,      Dtype::i64,    Dtype::f8e4m3fn,
                                                 Dtype::f8e5m2,   Dtype::boolean, Dtype::u8};

/// "f32", "f16", "bf16", "i32", "i64", "f8e4m3fn", "f8e5m2", "bool", "u8".
std::string_view dtype_name(Dtype dtype);
std::optional<Dtype> parse_dtype(std::string_view name);
/// Whether `code` is a Dtype's value.
bool is_dtype_code(int32_t code);

/// The element type kernels see (u8 is i8: the same bits; kernels decide the signedness).
ir::ElementType element_type(Dtype dtype);
/// The Dtype of a tensor's element type (i8 is u8); nullopt for types with no host layout (tf32, ...).
std::optional<Dtype> dtype_of(ir::ElementType element);
int64_t dtype_size(Dtype dtype);

}  // namespace cutile::op
