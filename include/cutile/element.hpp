// Element types of tiles and tensors. Each is a C++ type with the host storage layout of its Tile IR
// element type; `Element` is the concept kernels are templated on.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "cutile/ir/float_format.hpp"
#include "cutile/ir/type.hpp"

namespace cutile {

/// Narrow float formats held as their bit patterns on the host.
struct f16 {
  uint16_t bits;
};
struct bf16 {
  uint16_t bits;
};
/// tf32 exists only inside kernels (the mma input format for f32 data); it has no host storage.
struct tf32 {
  uint32_t bits;
};
struct f8e4m3fn {
  uint8_t bits;
};
struct f8e5m2 {
  uint8_t bits;
};
using f32 = float;
using f64 = double;
using i8 = int8_t;
using i16 = int16_t;
using i32 = int32_t;
using i64 = int64_t;

template <class T>
struct element_traits;  // specialised below for every element type

#define CUTILE_ELEMENT(T, IR, NAME, FLOAT)                                 \
  template <>                                                             \
  struct element_traits<T> {                                              \
    static constexpr ir::ElementType ir_type = ir::ElementType::IR;       \
    static constexpr std::string_view name = NAME;                        \
    static constexpr bool is_float = FLOAT;                               \
  }
CUTILE_ELEMENT(bool, i1, "bool", false);
CUTILE_ELEMENT(int8_t, i8, "i8", false);
CUTILE_ELEMENT(int16_t, i16, "i16", false);
CUTILE_ELEMENT(int32_t, i32, "i32", false);
CUTILE_ELEMENT(int64_t, i64, "i64", false);
CUTILE_ELEMENT(f16, f16, "f16", true);
CUTILE_ELEMENT(bf16, bf16, "bf16", true);
CUTILE_ELEMENT(float, f32, "f32", true);
CUTILE_ELEMENT(tf32, tf32, "tf32", true);
CUTILE_ELEMENT(double, f64, "f64", true);
CUTILE_ELEMENT(f8e4m3fn, f8e4m3fn, "f8e4m3fn", true);
CUTILE_ELEMENT(f8e5m2, f8e5m2, "f8e5m2", true);
#undef CUTILE_ELEMENT

template <class T>
concept Element = requires { element_traits<T>::ir_type; };
template <class T>
concept FloatElement = Element<T> && element_traits<T>::is_float;
template <class T>
concept IntegerElement = Element<T> && !element_traits<T>::is_float;

template <Element E>
inline constexpr ir::ElementType ir_element = element_traits<E>::ir_type;

/// Bytes one element takes in memory.
template <Element E>
inline constexpr size_t element_size = sizeof(E);

/// Host value -> element (rounding to nearest even for the narrow formats).
template <Element E>
E to_element(double value) {
  if constexpr (std::is_arithmetic_v<E>) {
    return static_cast<E>(value);
  } else {
    return E{static_cast<decltype(E::bits)>(ir::float_to_bits(ir_element<E>, value))};
  }
}

/// Element -> host value (exact).
template <Element E>
double from_element(E value) {
  if constexpr (std::is_arithmetic_v<E>) {
    return static_cast<double>(value);
  } else {
    return ir::bits_to_float(ir_element<E>, value.bits);
  }
}

}  // namespace cutile
