// Fixed numbers of the bytecode container (reference §1–§3): magic, section ids, tags. The per-op layout
// lives in the op table (cutile/ir/op_table.hpp); this header holds what is not per-op.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "cutile/ir/type.hpp"

namespace cutile::bytecode {

inline constexpr std::array<uint8_t, 8> kMagic = {0x7F, 'T', 'i', 'l', 'e', 'I', 'R', 0x00};
inline constexpr size_t kHeaderSize = 12;

enum class SectionId : uint8_t {
  end = 0x00, string = 0x01, func = 0x02, debug = 0x03, constant = 0x04, type = 0x05, global = 0x06,
  producer = 0x07,
};
inline constexpr uint8_t kNumSectionIds = 8;
inline constexpr uint8_t kSectionAlignFlag = 0x80;

/// Alignment the official reader demands of a section (0: none demanded).
constexpr size_t required_alignment(SectionId id) {
  switch (id) {
    case SectionId::string:
    case SectionId::type: return 4;
    case SectionId::func:
    case SectionId::debug:
    case SectionId::constant: return 8;
    default: return 0;
  }
}

enum class TypeTag : uint64_t {
  i1 = 0, i8 = 1, i16 = 2, i32 = 3, i64 = 4, f16 = 5, bf16 = 6, f32 = 7, tf32 = 8, f64 = 9, f8e4m3fn = 10,
  f8e5m2 = 11, pointer = 12, tile = 13, tensor_view = 14, partition_view = 15, function = 16, token = 17,
  f8e8m0fnu = 18, f4e2m1fn = 19, gather_scatter_view = 20, strided_view = 21, i4 = 22, f8e5m3fnu = 130,
};

constexpr TypeTag element_tag(ir::ElementType e) {
  using E = ir::ElementType;
  switch (e) {
    case E::i1: return TypeTag::i1;
    case E::i8: return TypeTag::i8;
    case E::i16: return TypeTag::i16;
    case E::i32: return TypeTag::i32;
    case E::i64: return TypeTag::i64;
    case E::f16: return TypeTag::f16;
    case E::bf16: return TypeTag::bf16;
    case E::f32: return TypeTag::f32;
    case E::tf32: return TypeTag::tf32;
    case E::f64: return TypeTag::f64;
    case E::f8e4m3fn: return TypeTag::f8e4m3fn;
    case E::f8e5m2: return TypeTag::f8e5m2;
    case E::f8e8m0fnu: return TypeTag::f8e8m0fnu;
    case E::f4e2m1fn: return TypeTag::f4e2m1fn;
    case E::i4: return TypeTag::i4;
    case E::f8e5m3fnu: return TypeTag::f8e5m3fnu;
  }
  return TypeTag::i1;
}

constexpr std::optional<ir::ElementType> element_of_tag(uint64_t tag) {
  using E = ir::ElementType;
  switch (static_cast<TypeTag>(tag)) {
    case TypeTag::i1: return E::i1;
    case TypeTag::i8: return E::i8;
    case TypeTag::i16: return E::i16;
    case TypeTag::i32: return E::i32;
    case TypeTag::i64: return E::i64;
    case TypeTag::f16: return E::f16;
    case TypeTag::bf16: return E::bf16;
    case TypeTag::f32: return E::f32;
    case TypeTag::tf32: return E::tf32;
    case TypeTag::f64: return E::f64;
    case TypeTag::f8e4m3fn: return E::f8e4m3fn;
    case TypeTag::f8e5m2: return E::f8e5m2;
    case TypeTag::f8e8m0fnu: return E::f8e8m0fnu;
    case TypeTag::f4e2m1fn: return E::f4e2m1fn;
    case TypeTag::i4: return E::i4;
    case TypeTag::f8e5m3fnu: return E::f8e5m3fnu;
    default: return std::nullopt;
  }
}

/// Tags of self-contained attributes (§3.1).
enum class AttrTag : uint64_t {
  integer = 1, floating = 2, boolean = 3, type = 4, string = 5, array = 6, dense_elements = 7, div_by = 8,
  same_elements = 9, dictionary = 10, optimization_hints = 11, bounded = 12,
};

/// Tags of debug-info attributes (§1.10).
enum class DebugTag : uint64_t {
  unknown = 0, compile_unit = 1, file = 2, lexical_block = 3, loc = 4, subprogram = 5, call_site = 6,
};

/// Function-table flags byte (§1.9).
inline constexpr uint8_t kFuncPrivate = 0x01;
inline constexpr uint8_t kFuncEntry = 0x02;
inline constexpr uint8_t kFuncHasHints = 0x04;
/// From 13.5 bits 1..3 are the function's form: 0x02 kernel entry, 0x04 extern implementation (the SIMT
/// preview), 0x08 a testing form; a kernel always carries its hints and its argument attributes, each a
/// self-contained attribute, after the location index.
inline constexpr uint8_t kFuncFormMask13_5 = 0x0E;
inline constexpr uint8_t kFuncExternImpl13_5 = 0x04;

/// Bytes of one element in dense constant storage (bit width rounded up to bytes; i1 is bit-packed and
/// reported as 1 here for the splat case).
inline size_t dense_storage_bytes(ir::ElementType e) { return static_cast<size_t>((ir::element_bits(e) + 7) / 8); }

/// Empty when `raw` is valid dense storage for tile type `tile` (§1.7: full row-major storage, one element
/// as a splat, i1 bit-packed with 00/FF as splats); otherwise what is wrong.
inline std::string dense_storage_problem(const ir::Type& tile, std::span<const uint8_t> raw) {
  if (!tile.is(ir::TypeKind::tile) || !tile.element().is(ir::TypeKind::element))
    return "dense constants need a tile of integers or floats, got " + tile.str();
  if (raw.empty()) return "dense constant storage is empty";
  const ir::ElementType e = tile.element().element_type();
  const uint64_t n = static_cast<uint64_t>(tile.num_elements());
  if (e == ir::ElementType::i1) {
    if (raw.size() == 1 && (raw[0] == 0x00 || raw[0] == 0xFF)) return {};
    if (raw.size() == (n + 7) / 8) return {};
    return "i1 constant of " + std::to_string(n) + " elements needs " + std::to_string((n + 7) / 8) +
           " bit-packed bytes or a 00/FF splat byte, got " + std::to_string(raw.size()) + " bytes";
  }
  const size_t width = dense_storage_bytes(e);
  if (raw.size() == width || raw.size() == width * n) return {};
  return std::string(ir::element_type_name(e)) + " constant of " + std::to_string(n) + " elements needs " +
         std::to_string(width * n) + " bytes (or " + std::to_string(width) + " for a splat), got " +
         std::to_string(raw.size());
}

}  // namespace cutile::bytecode
